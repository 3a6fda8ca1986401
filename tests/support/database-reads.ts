// Reads and writes only the tests need: the product never lists refunds, counts every
// user's tickets or reads the account audit back, and it issues refunds inside the
// transaction of the tool call (`insertRefund`). Relative imports: `refund-in-process.ts`
// runs this outside the test runner.

import type { Db } from '../../lib/db/engine';
import { formatRefundId, insertRefund, type NewRefund, type RefundAttempt } from '../../lib/db/refunds';
import type { AccountEvent } from '../../lib/db/user-roles';
import { writeTransaction } from '../../lib/db/write-transaction';

/** `insertRefund` in a write transaction of its own, as two instances refunding at once would. */
export function refundOrder(db: Db, refund: NewRefund): Promise<RefundAttempt> {
  return writeTransaction(db, (transaction) => insertRefund(transaction, refund));
}

/** One user's refunds, newest first. */
export async function listRefunds(db: Db, { userId }: { userId: string }) {
  const rows = await db
    .selectFrom('refunds')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => ({
    refundId: formatRefundId(row.id),
    orderId: row.order_id,
    amountMinor: Number(row.amount_minor),
    reason: row.reason,
    status: row.status,
    userId: row.user_id,
  }));
}

/** How many tickets exist, of every user. */
export async function countTickets(db: Db): Promise<number> {
  const row = await db
    .selectFrom('tickets')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** The account audit, oldest first. */
export async function listAccountEvents(db: Db): Promise<(AccountEvent & { createdAt: string })[]> {
  const rows = await db.selectFrom('account_audit').selectAll().orderBy('id').execute();
  return rows.map((row) => ({
    actorId: row.actor_id,
    action: row.action,
    targetUserId: row.target_user_id,
    ...(row.detail === null ? {} : { detail: JSON.parse(row.detail) as Record<string, unknown> }),
    createdAt: row.created_at,
  }));
}
