import 'server-only';
import { getConfig } from '@/lib/config';
import type { Db } from '@/lib/db/engine';
import type { NewApproval } from '../life-cycle/approval-rows';
import { mailApprovers } from './approval-mail';

/**
 * Tells the approvers of a call that starts waiting: mails the holders of its role steps
 * now, and marks the row for a reminder at half its wait (`remind_at`, which the one
 * deadline keeper finds by query: no timer per approval). Returns when the reminder is
 * due, so the caller can make sure the keeper wakes by then; undefined when nobody is
 * mailed (no `SMTP_URL`, or no role step). Never waits for the mail and never fails the request.
 */
export function announceToApprovers(
  db: Db,
  approval: Pick<NewApproval, 'id' | 'steps' | 'expiresAt'>,
  now = Date.now(),
): number | undefined {
  if (!approval.steps?.some((step) => step.kind === 'role')) return undefined;
  const remindAt = reminderAt(now, approval.expiresAt);
  if (remindAt === undefined) return undefined;
  void (async () => {
    await db
      .updateTable('approvals')
      .set({ remind_at: remindAt })
      .where('id', '=', approval.id)
      .where('status', '=', 'pending')
      .execute();
    await mailApprovers(db, approval.id, 'requested', { now });
  })().catch((error: unknown) =>
    console.error(`[toolgate] mail: could not tell the approvers of approval ${approval.id}:`, error),
  );
  return remindAt;
}

/** When approvers who wait from `now` until `expiresAt` are reminded: at half the wait; undefined without `SMTP_URL`. */
export function reminderAt(now: number, expiresAt: number): number | undefined {
  return getConfig().SMTP_URL === undefined ? undefined : now + Math.floor((expiresAt - now) / 2);
}

/** When the earliest reminder of a pending approval is due, or undefined when none is. */
export async function earliestDueReminder(db: Db): Promise<number | undefined> {
  const row = await db
    .selectFrom('approvals')
    .select((eb) => eb.fn.min('remind_at').as('next'))
    .where('status', '=', 'pending')
    .where('remind_at', 'is not', null)
    .executeTakeFirst();
  return row?.next == null ? undefined : Number(row.next);
}

/**
 * Sends the reminders due at `now` (at most `limit` approvals a pass): each row's
 * `remind_at` is cleared by compare-and-set first, so of several instances one reminds,
 * and the mail's unique key keeps it to one per person even so.
 */
export async function sendDueReminders(db: Db, now: number, limit = 100): Promise<void> {
  const due = await db
    .selectFrom('approvals')
    .select(['id', 'remind_at'])
    .where('status', '=', 'pending')
    .where('remind_at', '<=', now)
    .orderBy('remind_at')
    .limit(limit)
    .execute();
  for (const row of due) {
    const taken = await db
      .updateTable('approvals')
      .set({ remind_at: null })
      .where('id', '=', row.id)
      .where('remind_at', '=', Number(row.remind_at))
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) continue;
    await mailApprovers(db, row.id, 'reminder', { now }).catch((error: unknown) =>
      console.error(`[toolgate] mail: could not remind the approvers of approval ${row.id}:`, error),
    );
  }
}
