import 'server-only';
import { mailboxOf } from '@toolgate/engine/client';
import { asyncScopeSlot } from '@toolgate/engine/telemetry';
import { spendAuthLimit } from '@/lib/server/auth-limits';

/** A unit of one mailbox's mail budget that the auth route spent on the request it is serving. */
type SpentUnit = { mailbox: string; used: boolean };

// A slot of the server's one async-context store, which every module copy shares.
const spentUnits = asyncScopeSlot<SpentUnit>('mailBudget');

/**
 * Runs `work` (better-auth serving one request) knowing that the route already spent one
 * unit of `email`'s mail budget on it, so a mail that request sends there is not counted
 * twice. The route spends per request, mail or not, so the answer never tells whether an
 * account exists.
 */
export function withMailBudgetSpentFor<T>(email: string | undefined, work: () => Promise<T>): Promise<T> {
  if (email === undefined) return work();
  return spentUnits.run({ mailbox: mailboxOf(email), used: false }, work);
}

/**
 * Spends one unit of the mail budget of `email`'s mailbox for a mail about to be sent:
 * true to send it, false when the budget is spent or cannot be counted (fail closed).
 */
export async function spendMailBudget(email: string): Promise<boolean> {
  const mailbox = mailboxOf(email);
  const spent = spentUnits.getStore();
  if (spent !== undefined && spent.mailbox === mailbox && !spent.used) {
    spent.used = true;
    return true;
  }
  return (await spendAuthLimit('mail', mailbox)) === undefined;
}
