import 'server-only';
import type { Db } from '@/lib/db/engine';
import { writeTransaction } from '@/lib/db/write-transaction';
import { escalationOfRule } from '@/lib/policy';
import { publishApprovalChange } from './approval-events';
import { approvalNotices } from './approval-notices';
import { getApproval, getApprovalSteps, type NewApproval } from './approval-rows';
import { auditWhileWaiting } from './audit-fields-of-approval';

/** What the row keeps of its rule's escalation: the role, and the wait that restarts. */
type StoredEscalation = { to: string; timeoutMs: number };

/**
 * Marks a call that starts waiting (or whose steps a newer policy replaced) for escalation
 * when its policy rule has `escalate`: `escalate_at` (found by the one deadline keeper's
 * query, no timer per approval) and what to do then. Returns when it is due, so the caller
 * makes sure the keeper wakes by then.
 */
export function scheduleEscalation(
  db: Db,
  approval: Pick<NewApproval, 'id' | 'ruleLabel' | 'steps' | 'expiresAt'>,
  now = Date.now(),
): number | undefined {
  const escalate = escalationOfRule(approval.ruleLabel);
  if (escalate === undefined || !approval.steps?.some((step) => step.kind === 'role')) return undefined;
  const escalateAt = now + escalate.afterMs;
  // Past the deadline there is nothing left to hand on.
  if (escalateAt >= approval.expiresAt) return undefined;
  const stored: StoredEscalation = { to: escalate.to.role, timeoutMs: approval.expiresAt - now };
  void db
    .updateTable('approvals')
    .set({ escalate_at: escalateAt, escalation: JSON.stringify(stored) })
    .where('id', '=', approval.id)
    .where('status', '=', 'pending')
    .execute()
    .catch((error: unknown) =>
      console.error(`[toolgate] could not schedule the escalation of approval ${approval.id}:`, error),
    );
  return escalateAt;
}

/** When the earliest escalation of a pending approval is due, or undefined when none is. */
export async function earliestDueEscalation(db: Db): Promise<number | undefined> {
  const row = await db
    .selectFrom('approvals')
    .select((eb) => eb.fn.min('escalate_at').as('next'))
    .where('status', '=', 'pending')
    .where('escalate_at', 'is not', null)
    .executeTakeFirst();
  return row?.next == null ? undefined : Number(row.next);
}

/**
 * Escalates the approvals due at `now` (at most `limit` a pass). Each is one transaction
 * that starts with a compare-and-set clearing `escalate_at`, so of several instances one
 * escalates, once: its open role steps go to the rule's role (marked `escalated_to`), the
 * deadline restarts from the rule's wait, a reminder is due at half of it. Then the
 * requester's card and the inboxes are told, the new role's holders mailed, the webhook
 * gets `approval.escalated`, and an audit row records it.
 */
export async function escalateDueApprovals(db: Db, now: number, limit = 100): Promise<void> {
  const due = await db
    .selectFrom('approvals')
    .select(['id', 'escalate_at', 'escalation'])
    .where('status', '=', 'pending')
    .where('escalate_at', '<=', now)
    .orderBy('escalate_at')
    .limit(limit)
    .execute();
  for (const candidate of due) {
    const escalation = parseEscalation(candidate.escalation);
    const before = await getApprovalSteps(db, candidate.id);
    const done = await writeTransaction(db, async (transaction) => {
      const taken = await transaction
        .updateTable('approvals')
        .set((eb) => ({
          escalate_at: null,
          ...(escalation !== undefined && {
            expires_at: now + escalation.timeoutMs,
            remind_at: approvalNotices().reminderAt(now, now + escalation.timeoutMs) ?? null,
            version: eb('version', '+', 1),
          }),
          updated_at: new Date(now).toISOString(),
        }))
        .where('id', '=', candidate.id)
        .where('status', '=', 'pending')
        .where('escalate_at', '=', Number(candidate.escalate_at))
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1 || escalation === undefined) return false;
      const moved = await transaction
        .updateTable('approval_steps')
        .set({ role: escalation.to, escalated_to: escalation.to })
        .where('approval_id', '=', candidate.id)
        .where('kind', '=', 'role')
        .where('decision', 'is', null)
        .executeTakeFirst();
      return Number(moved.numUpdatedRows) > 0;
    });
    if (!done || escalation === undefined) continue;
    await tellOfEscalation(db, candidate.id, before, escalation, now);
  }
}

async function tellOfEscalation(
  db: Db,
  approvalId: string,
  before: Awaited<ReturnType<typeof getApprovalSteps>>,
  escalation: StoredEscalation,
  now: number,
): Promise<void> {
  const row = await getApproval(db, approvalId);
  if (row === undefined) return;
  // The holders of the old role see it leave their inbox; the new role's see it arrive.
  publishApprovalChange(db, row, before);
  publishApprovalChange(db, row);
  await approvalNotices().escalated(db, approvalId, { to: escalation.to, now });
  await auditWhileWaiting(db, row, { outcome: 'escalated', detail: { escalatedTo: escalation.to }, now });
}

function parseEscalation(text: string | null): StoredEscalation | undefined {
  if (text === null) return undefined;
  try {
    const value = JSON.parse(text) as Partial<StoredEscalation>;
    return typeof value.to === 'string' && typeof value.timeoutMs === 'number'
      ? { to: value.to, timeoutMs: value.timeoutMs }
      : undefined;
  } catch {
    return undefined;
  }
}
