import 'server-only';
import type { Db } from '@/lib/db/engine';

/**
 * The rows of the approval webhook's outbox, `webhook_delivery`. A delivery's life cycle:
 *
 *   pending ──try answered 2xx──▶ delivered
 *   pending ──try failed, tries left──▶ pending (due again after a backoff)
 *   pending ──last try failed──▶ failed
 *
 * A try starts with a compare-and-set on (`attempts`, `next_attempt_at`): the one loop,
 * of any instance, whose update matched owns that try; it counts the try and pushes
 * `next_attempt_at` out by a lease, so a try lost with its process is due again once the
 * lease is over. Only the owner of the latest try moves the row on.
 */
export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** The loop a row belongs to: the approval webhook, or mail to one approver. */
export type DeliveryChannel = 'webhook' | 'mail';

/** A row as the admin view and the loop read it. */
export type WebhookDelivery = {
  id: string;
  eventType: string;
  approvalId: string;
  body: string;
  attempts: number;
  nextAttemptAt: number;
  status: WebhookDeliveryStatus;
  lastError: string | null;
  lastStatus: number | null;
  createdAt: string;
  updatedAt: string;
};

type Row = {
  id: string;
  event_type: string;
  approval_id: string;
  body: string;
  attempts: number;
  next_attempt_at: number;
  status: WebhookDeliveryStatus;
  last_error: string | null;
  last_status: number | null;
  created_at: string;
  updated_at: string;
};

const toDelivery = (row: Row): WebhookDelivery => ({
  id: row.id,
  eventType: row.event_type,
  approvalId: row.approval_id,
  body: row.body,
  attempts: Number(row.attempts),
  nextAttemptAt: Number(row.next_attempt_at),
  status: row.status,
  lastError: row.last_error,
  lastStatus: row.last_status === null ? null : Number(row.last_status),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** Queues one event, due at once. */
export async function insertWebhookDelivery(
  db: Db,
  {
    id,
    eventType,
    approvalId,
    body,
    now,
    channel = 'webhook',
    dedupeKey,
  }: {
    id: string;
    eventType: string;
    approvalId: string;
    body: string;
    now: number;
    /** Which loop sends it: `webhook` (default) or `mail`. */
    channel?: DeliveryChannel;
    /** When given, a row with the same key already queued (by any instance) wins: nothing is added. */
    dedupeKey?: string;
  },
): Promise<boolean> {
  const at = new Date(now).toISOString();
  const result = await db
    .insertInto('webhook_delivery')
    .values({
      id,
      event_type: eventType,
      approval_id: approvalId,
      body,
      next_attempt_at: now,
      last_error: null,
      last_status: null,
      created_at: at,
      updated_at: at,
      channel,
      ...(dedupeKey !== undefined && { dedupe_key: dedupeKey }),
    })
    .onConflict((conflict) => conflict.column('dedupe_key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/**
 * Whether an event of this type was queued for this approval (and not yet pruned), looking
 * only at rows queued since `since` (epoch ms; the approval's creation): the `created_at`
 * index bounds the search to the events of that approval's lifetime.
 */
export async function hasWebhookDelivery(
  db: Db,
  { approvalId, eventType, since }: { approvalId: string; eventType: string; since: number },
): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_delivery')
    .select('id')
    .where('created_at', '>=', new Date(since).toISOString())
    .where('approval_id', '=', approvalId)
    .where('event_type', '=', eventType)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Deletes up to `limit` delivered or failed deliveries queued before `before` (epoch ms),
 * oldest first; pending ones are kept whatever their age. Returns how many went.
 */
export async function pruneWebhookDeliveries(
  db: Db,
  { before, limit }: { before: number; limit: number },
): Promise<number> {
  const old = await db
    .selectFrom('webhook_delivery')
    .select('id')
    .where('status', 'in', ['delivered', 'failed'])
    .where('created_at', '<', new Date(before).toISOString())
    .orderBy('created_at')
    .limit(limit)
    .execute();
  if (old.length === 0) return 0;
  await db
    .deleteFrom('webhook_delivery')
    .where(
      'id',
      'in',
      old.map((row) => row.id),
    )
    .where('status', 'in', ['delivered', 'failed'])
    .execute();
  return old.length;
}

/**
 * Claims up to `limit` deliveries due at `now` for one try each, oldest due first: each
 * claim is a compare-and-set, so of several loops only one gets a given try. Returns the
 * claimed rows with `attempts` already counting this try.
 */
export async function claimDueWebhookDeliveries(
  db: Db,
  {
    now,
    limit,
    leaseMs,
    channel = 'webhook',
  }: { now: number; limit: number; leaseMs: number; channel?: DeliveryChannel },
): Promise<WebhookDelivery[]> {
  if (limit <= 0) return [];
  const due = (await db
    .selectFrom('webhook_delivery')
    .selectAll()
    .where('channel', '=', channel)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit)
    .execute()) as Row[];
  const claimed: WebhookDelivery[] = [];
  for (const row of due.map(toDelivery)) {
    const result = await db
      .updateTable('webhook_delivery')
      .set({
        attempts: row.attempts + 1,
        next_attempt_at: now + leaseMs,
        updated_at: new Date(now).toISOString(),
      })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where('attempts', '=', row.attempts)
      .where('next_attempt_at', '=', row.nextAttemptAt)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) claimed.push({ ...row, attempts: row.attempts + 1 });
  }
  return claimed;
}

/** Records the answer to try `attempt`: delivered, due again at `retryAt`, or failed for good (no `retryAt`). */
export async function settleWebhookTry(
  db: Db,
  {
    id,
    attempt,
    delivered,
    status,
    error,
    retryAt,
    now,
  }: {
    id: string;
    attempt: number;
    delivered: boolean;
    status?: number;
    error?: string;
    retryAt?: number;
    now: number;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_delivery')
    .set({
      status: delivered ? 'delivered' : retryAt === undefined ? 'failed' : 'pending',
      last_status: status ?? null,
      last_error: delivered ? null : (error ?? null),
      ...(retryAt !== undefined && !delivered && { next_attempt_at: retryAt }),
      updated_at: new Date(now).toISOString(),
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    // A 2xx counts even after the lease ran out; anything else only from the latest try.
    .$if(!delivered, (query) => query.where('attempts', '=', attempt))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The latest deliveries, newest first, for the admin view. */
export async function listWebhookDeliveries(
  db: Db,
  { limit = 100, status }: { limit?: number; status?: WebhookDeliveryStatus } = {},
): Promise<WebhookDelivery[]> {
  const rows = (await db
    .selectFrom('webhook_delivery')
    .selectAll()
    .where('channel', '=', 'webhook')
    .$if(status !== undefined, (query) => query.where('status', '=', status as WebhookDeliveryStatus))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()) as Row[];
  return rows.map(toDelivery);
}
