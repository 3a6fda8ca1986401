import type { ApprovalView } from './api-types';

/** What the approver narrows the inbox to; empty fields narrow nothing. */
export type InboxFilters = {
  tool: string;
  role: string;
  /** Amounts as typed ("" = no bound). */
  minAmount: string;
  maxAmount: string;
  /** Only items waiting at least this long (ms); 0 = any. */
  olderThanMs: number;
};

export const noFilters: InboxFilters = { tool: '', role: '', minAmount: '', maxAmount: '', olderThanMs: 0 };

/** The choices of "waiting at least". */
export const ageChoices = [0, 10 * 60_000, 60 * 60_000, 24 * 60 * 60_000] as const;

/** The amount a call is about (`input.amount`), when it has one. */
export function amountOf(item: ApprovalView): { amount: number; currency?: string } | undefined {
  const input = item.input as { amount?: unknown; currency?: unknown } | null | undefined;
  if (typeof input?.amount !== 'number') return undefined;
  const currency = typeof input.currency === 'string' ? input.currency : undefined;
  return { amount: input.amount, ...(currency !== undefined && { currency }) };
}

/** The roles the open steps of an item ask for. */
export function rolesOf(item: ApprovalView): string[] {
  return item.steps.flatMap((step) => (step.kind === 'role' && step.role !== undefined ? [step.role] : []));
}

/** When an item was asked (epoch ms), when the list says. */
export function askedAtOf(item: ApprovalView): number | undefined {
  const asked = item.askedAt === undefined ? Number.NaN : Date.parse(item.askedAt);
  return Number.isNaN(asked) ? undefined : asked;
}

/** The items `filters` let through, in their order. */
export function filterInbox(
  items: readonly ApprovalView[],
  filters: InboxFilters,
  now: number,
): ApprovalView[] {
  const min = filters.minAmount.trim() === '' ? undefined : Number(filters.minAmount);
  const max = filters.maxAmount.trim() === '' ? undefined : Number(filters.maxAmount);
  return items.filter((item) => {
    if (filters.tool !== '' && item.tool !== filters.tool) return false;
    if (filters.role !== '' && !rolesOf(item).includes(filters.role)) return false;
    const amount = amountOf(item)?.amount;
    if (min !== undefined && !Number.isNaN(min) && (amount === undefined || amount < min)) return false;
    if (max !== undefined && !Number.isNaN(max) && (amount === undefined || amount > max)) return false;
    if (filters.olderThanMs > 0) {
      const asked = askedAtOf(item);
      if (asked === undefined || now - asked < filters.olderThanMs) return false;
    }
    return true;
  });
}
