'use client';

import { readableDeadline, readableWait } from '@/lib/shared/readable-wait';
import type { ApprovalView } from './api-types';
import { QuestionMark } from './approval-questions';
import { ageChoices, amountOf, askedAtOf, type InboxFilters, rolesOf } from './inbox-filters';
import { inboxTextOf } from './inbox-text';
import { cn } from './ui/cn';
import { useWorkspace } from './workspace-provider';

const fieldClass = 'h-7 rounded-md border border-border bg-background px-1.5 text-xs';

/**
 * The inbox at volume: filters (tool, role, amount range, how long it waits) above a compact
 * list — requester, what, amount, age, deadline — one row per item. A click selects the row's
 * item (its full card is beside the list); j / k move the same selection.
 */
export function InboxCompactList({
  items,
  all,
  filters,
  onFilters,
  selectedId,
  onSelect,
  now,
}: {
  /** The items the filters let through. */
  items: readonly ApprovalView[];
  /** Every item waiting, for the filters' choices. */
  all: readonly ApprovalView[];
  filters: InboxFilters;
  onFilters: (filters: InboxFilters) => void;
  selectedId: string | undefined;
  onSelect: (approvalId: string) => void;
  now: number;
}) {
  const { t, locale } = useWorkspace();
  const text = inboxTextOf(locale);
  const language = locale === 'zh' ? 'zh' : 'en';
  const tools = [...new Set(all.map((item) => item.tool))].sort();
  const roles = [...new Set(all.flatMap(rolesOf))].sort();
  const roleName = (role: string) => (Object.hasOwn(t.roleNames, role) ? t.roleNames[role] : role) ?? role;
  const set = (change: Partial<InboxFilters>) => onFilters({ ...filters, ...change });
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <fieldset className="flex flex-wrap items-center gap-1.5" aria-label={text.filterLabel}>
        <select
          className={fieldClass}
          aria-label={text.columns.what}
          value={filters.tool}
          onChange={(event) => set({ tool: event.target.value })}
        >
          <option value="">{text.filterAllTools}</option>
          {tools.map((tool) => (
            <option key={tool} value={tool}>
              {tool}
            </option>
          ))}
        </select>
        <select
          className={fieldClass}
          aria-label={text.filterAllRoles}
          value={filters.role}
          onChange={(event) => set({ role: event.target.value })}
        >
          <option value="">{text.filterAllRoles}</option>
          {roles.map((role) => (
            <option key={role} value={role}>
              {roleName(role)}
            </option>
          ))}
        </select>
        <input
          className={cn(fieldClass, 'w-20')}
          inputMode="decimal"
          aria-label={text.filterMin}
          placeholder={text.filterMin}
          value={filters.minAmount}
          onChange={(event) => set({ minAmount: event.target.value })}
        />
        <input
          className={cn(fieldClass, 'w-16')}
          inputMode="decimal"
          aria-label={text.filterMax}
          placeholder={text.filterMax}
          value={filters.maxAmount}
          onChange={(event) => set({ maxAmount: event.target.value })}
        />
        <select
          className={fieldClass}
          aria-label={text.filterOlderThan}
          value={filters.olderThanMs}
          onChange={(event) => set({ olderThanMs: Number(event.target.value) })}
        >
          {ageChoices.map((ms) => (
            <option key={ms} value={ms}>
              {ms === 0
                ? `${text.filterOlderThan}: ${text.filterAnyAge}`
                : `${text.filterOlderThan} ≥ ${readableWait(ms, language)}`}
            </option>
          ))}
        </select>
      </fieldset>
      {items.length < all.length && (
        <p className="text-xs text-muted-foreground" data-testid="inbox-filtered">
          {text.filteredOut(items.length, all.length)}
        </p>
      )}
      {items.length === 0 ? (
        <p className="text-xs text-muted-foreground">{text.noneMatch}</p>
      ) : (
        <table className="w-full table-fixed text-xs" data-testid="inbox-rows">
          <thead className="text-left text-muted-foreground">
            <tr>
              <th className="w-[22%] font-normal">{text.columns.requester}</th>
              <th className="font-normal">{text.columns.what}</th>
              <th className="w-[18%] font-normal">{text.columns.amount}</th>
              <th className="w-[13%] font-normal">{text.columns.age}</th>
              <th className="w-[15%] font-normal">{text.columns.deadline}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => {
              const amount = amountOf(item);
              const asked = askedAtOf(item);
              const selected = item.approvalId === selectedId;
              return (
                <tr
                  key={item.approvalId}
                  data-inbox-row={item.approvalId}
                  aria-selected={selected}
                  onClick={() => onSelect(item.approvalId)}
                  className={cn(
                    'cursor-pointer border-t border-border',
                    selected && 'bg-primary/10 font-medium',
                  )}
                >
                  <td className="truncate py-1 pr-1">{item.requester.name || '—'}</td>
                  <td className="truncate py-1 pr-1">
                    <button
                      type="button"
                      className="w-full truncate text-left"
                      onClick={() => onSelect(item.approvalId)}
                    >
                      <QuestionMark view={item} locale={language} />
                      {item.summary?.[locale] ?? item.summary?.en ?? item.tool}
                    </button>
                  </td>
                  <td className="truncate py-1 pr-1 tabular-nums">
                    {amount === undefined
                      ? '—'
                      : `${amount.amount}${amount.currency ? ` ${amount.currency}` : ''}`}
                  </td>
                  <td className="truncate py-1 pr-1 tabular-nums">
                    {asked === undefined ? '—' : readableWait(now - asked, language)}
                  </td>
                  <td className="truncate py-1 tabular-nums">
                    {readableDeadline(item.expiresAt, now, language)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}
