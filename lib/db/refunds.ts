import { sql } from 'kysely';
import { type Db, engineOf } from './engine';
import type { RefundTable } from './schema';

/** A refund as the product shows it. */
export type Refund = {
  /** The customer-facing number, `RF-000001`. */
  refundId: string;
  orderId: string;
  /** In minor units (cents, fen) of `currency`. */
  amountMinor: number;
  currency: string;
  reason: string;
  status: RefundTable['status'];
  /** The user who asked for it. */
  userId: string;
  chatId: string | null;
  createdAt: string;
};

/** Formats a row id as a refund number: 1 → `RF-000001`. */
export function formatRefundId(id: number): string {
  return `RF-${String(id).padStart(6, '0')}`;
}

/** The row id of a refund number (`RF-000001` → 1), or undefined for anything else. */
export function parseRefundId(refundId: string): number | undefined {
  const match = /^RF-(\d{6,})$/.exec(refundId);
  return match === null ? undefined : Number(match[1]);
}

type RefundRow = { [COLUMN in keyof RefundTable]: COLUMN extends 'id' ? number : RefundTable[COLUMN] };

function toRefund(row: RefundRow): Refund {
  return {
    refundId: formatRefundId(row.id),
    orderId: row.order_id,
    amountMinor: Number(row.amount_minor),
    currency: row.currency,
    reason: row.reason,
    status: row.status,
    userId: row.user_id,
    chatId: row.chat_id,
    createdAt: row.created_at,
  };
}

/** What is left to refund on an order: its total, the issued refunds so far, and the rest (minor units). */
export type RefundBalance = {
  orderId: string;
  totalMinor: number;
  refundedMinor: number;
  remainingMinor: number;
  currency: string;
};

/** What a new refund needs. The amount is in minor units of the order's currency. */
export type NewRefund = {
  orderId: string;
  amountMinor: number;
  reason: string;
  /** Who asks for it; only they see it. */
  userId: string;
  chatId?: string | null;
};

/** How an attempt to refund ended: issued, the order unknown, or refused (more than is left, or no total). */
export type RefundAttempt =
  | { kind: 'issued'; refund: Refund; balance: RefundBalance }
  | { kind: 'unknown-order'; orderId: string }
  | { kind: 'no-total'; orderId: string }
  | { kind: 'exceeds-remaining'; balance: RefundBalance };

/** The order's total and what its issued refunds add up to, read with `db` (a transaction inside one). */
async function readBalance(db: Db, orderId: string, { lock }: { lock: boolean }) {
  let query = db.selectFrom('orders').select(['id', 'total_minor', 'currency']).where('id', '=', orderId);
  // Postgres: the order's row lock orders concurrent refunds of one order; SQLite's write lock
  // (BEGIN IMMEDIATE, taken by writeTransaction) already does, and it has no FOR UPDATE.
  if (lock && engineOf(db) === 'postgres') query = query.forUpdate();
  const order = await query.executeTakeFirst();
  if (order === undefined) return { kind: 'unknown-order' as const };
  if (order.total_minor === null || order.currency === null) return { kind: 'no-total' as const };
  const refunded = await db
    .selectFrom('refunds')
    .select(sql<number | string | null>`sum(amount_minor)`.as('sum'))
    .where('order_id', '=', orderId)
    .where('status', '=', 'issued')
    .executeTakeFirst();
  const totalMinor = Number(order.total_minor);
  const refundedMinor = Number(refunded?.sum ?? 0);
  const balance: RefundBalance = {
    orderId,
    totalMinor,
    refundedMinor,
    remainingMinor: Math.max(0, totalMinor - refundedMinor),
    currency: order.currency,
  };
  return { kind: 'balance' as const, balance };
}

/** The order's total, refunded so far and what remains; undefined for an unknown order or one without a total. */
export async function getRefundBalance(db: Db, orderId: string): Promise<RefundBalance | undefined> {
  const read = await readBalance(db, orderId, { lock: false });
  return read.kind === 'balance' ? read.balance : undefined;
}

/**
 * Checks what is left on the order and inserts the refund if it fits, as one step. Call it
 * inside a write transaction (`writeTransaction`) with that transaction's handle: there the
 * check and the insert are atomic across instances (Postgres locks the order row; SQLite holds
 * the database's write lock), so two refunds at once never add up to more than the total. A
 * caller may write more in the same transaction (the record of the call) before it commits.
 */
export async function insertRefund(transaction: Db, refund: NewRefund): Promise<RefundAttempt> {
  if (!Number.isSafeInteger(refund.amountMinor) || refund.amountMinor <= 0)
    throw new RangeError(
      `amountMinor must be a positive whole number of minor units, got ${refund.amountMinor}`,
    );
  const read = await readBalance(transaction, refund.orderId, { lock: true });
  if (read.kind === 'unknown-order') return { kind: 'unknown-order', orderId: refund.orderId };
  if (read.kind === 'no-total') return { kind: 'no-total', orderId: refund.orderId };
  const { balance } = read;
  if (refund.amountMinor > balance.remainingMinor) return { kind: 'exceeds-remaining', balance };
  const row = await transaction
    .insertInto('refunds')
    .values({
      order_id: refund.orderId,
      amount_minor: refund.amountMinor,
      currency: balance.currency,
      reason: refund.reason,
      status: 'issued',
      user_id: refund.userId,
      chat_id: refund.chatId ?? null,
      created_at: new Date().toISOString(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const refundedMinor = balance.refundedMinor + refund.amountMinor;
  return {
    kind: 'issued',
    refund: toRefund(row),
    balance: { ...balance, refundedMinor, remainingMinor: balance.totalMinor - refundedMinor },
  };
}

/**
 * Takes back one of this user's issued refunds (it no longer counts against the order's total).
 * Returns it voided, or undefined when there is no such issued refund of this user: someone
 * else's refund answers like an unknown one. Takes a transaction or the database.
 */
export async function voidRefund(
  db: Db,
  { refundId, userId }: { refundId: string; userId: string },
): Promise<Refund | undefined> {
  const id = parseRefundId(refundId);
  if (id === undefined) return undefined;
  const row = await db
    .updateTable('refunds')
    .set({ status: 'voided' })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('status', '=', 'issued')
    .returningAll()
    .executeTakeFirst();
  return row === undefined ? undefined : toRefund(row);
}
