import 'server-only';
import { type Db, insertAuditRow, type NewAuditRow } from '@/lib/db';

/**
 * The audit shell's writer for one turn of `userId`. Rows are written without holding up
 * the tool call, and `flush` waits for the ones still in flight, so a turn ends only once
 * its audit rows are readable (a client that reads the log right after a turn sees them).
 */
export function createAuditWriter(
  db: Db,
  userId: string,
): { record: (row: NewAuditRow) => Promise<unknown>; flush: () => Promise<void> } {
  const inFlight = new Set<Promise<unknown>>();
  return {
    record: (row) => {
      const write: Promise<unknown> = insertAuditRow(db, { ...row, userId }).finally(() =>
        inFlight.delete(write),
      );
      inFlight.add(write);
      return write;
    },
    flush: async () => {
      await Promise.allSettled([...inFlight]);
    },
  };
}
