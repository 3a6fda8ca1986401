import 'server-only';
import type { Db } from '@/lib/db/engine';
import type { ApprovalOutcome } from './approval-answers';
import { type ApprovalRecord, getApproval } from './approval-rows';

/** Statuses of a call that has not finished yet: still waiting, or allowed and about to run or running. */
const unfinished = new Set<string>(['pending', 'approved', 'executing']);

/**
 * How a call ended, as an approver reads it: ran (`executed`, with its result), failed while
 * running, ended unrun (`denied`: a person, the policy now, Stop, a new message or a deleted
 * chat), `expired`, or `withdrawn` by its requester. Undefined while it has not ended.
 * `result` is what the tool answered (`{ refundId: "RF-…", … }`), when it was recorded.
 */
export function outcomeOf(
  row: Pick<ApprovalRecord, 'status' | 'endReason'>,
  result?: unknown,
): ApprovalOutcome | undefined {
  const status: string = row.status;
  const endReason: string | undefined = row.endReason;
  if (unfinished.has(status)) return undefined;
  if (status === 'executed') return { status: 'executed', ...(result !== undefined && { result }) };
  if (status === 'failed') return { status: 'failed' };
  if (status === 'expired') return { status: 'expired' };
  if (status === 'withdrawn' || endReason === 'withdrawn') return { status: 'withdrawn' };
  return { status: 'denied' };
}

/**
 * What the tools of these calls answered, by tool call id: the recorded effect of each write
 * that ran (the idempotency record, scoped to the call's chat). Calls without one are absent.
 */
export async function resultsOfCalls(
  db: Db,
  rows: readonly Pick<ApprovalRecord, 'status' | 'toolCallId' | 'chatId'>[],
): Promise<Map<string, unknown>> {
  const ran = rows.filter((row) => row.status === 'executed');
  const results = new Map<string, unknown>();
  if (ran.length === 0) return results;
  const effects = await db
    .selectFrom('tool_effects')
    .select(['tool_call_id', 'scope', 'result'])
    .where(
      'tool_call_id',
      'in',
      ran.map((row) => row.toolCallId),
    )
    .execute();
  for (const row of ran) {
    const effect = effects.find(
      (candidate) => candidate.tool_call_id === row.toolCallId && candidate.scope === row.chatId,
    );
    if (effect === undefined) continue;
    try {
      results.set(row.toolCallId, JSON.parse(effect.result));
    } catch {
      // An unreadable record: the outcome still says the call ran.
    }
  }
  return results;
}

/** How long a decision's answer waits for the call it allowed to finish running. */
const runWaitMs = 5_000;

/**
 * The outcome of an approval once its call has finished: waits (briefly, polling the row)
 * while the call it settled is still being taken on or running, so the answer to an Allow
 * can say what the call did. Undefined when it has not finished in time, or is unknown.
 */
export async function settledOutcome(
  db: Db,
  approvalId: string,
  { waitMs = runWaitMs }: { waitMs?: number } = {},
): Promise<ApprovalOutcome | undefined> {
  const until = Date.now() + waitMs;
  for (;;) {
    const row = await getApproval(db, approvalId);
    if (row === undefined) return undefined;
    if (!unfinished.has(row.status) || Date.now() >= until) {
      return outcomeOf(row, (await resultsOfCalls(db, [row])).get(row.toolCallId));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
