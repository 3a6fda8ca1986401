import type { ReactNode } from 'react';

/** One column heading of a {@link RecordTable}; numbers read better right-aligned. */
export type RecordColumn = { label: ReactNode; align?: 'right' };

/**
 * The bordered, scrollable table the operators' pages list records in: a header row,
 * then `children` (the rows), or one cell saying `emptyText` when there are none.
 */
export function RecordTable({
  columns,
  isEmpty,
  emptyText,
  children,
}: {
  columns: readonly RecordColumn[];
  isEmpty: boolean;
  emptyText: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="overflow-x-auto rounded-lg border border-border">
      <table className="w-full text-left text-sm">
        <thead className="bg-muted text-xs text-muted-foreground">
          <tr>
            {columns.map((column, index) => (
              <th
                // Headings are fixed per page; their order is their identity.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above
                key={index}
                className={
                  column.align === 'right' ? 'px-3 py-2 text-right font-medium' : 'px-3 py-2 font-medium'
                }
              >
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {isEmpty ? (
            <tr>
              <td colSpan={columns.length} className="px-3 py-6 text-center text-muted-foreground">
                {emptyText}
              </td>
            </tr>
          ) : (
            children
          )}
        </tbody>
      </table>
    </div>
  );
}
