import 'server-only';
import type { ApprovalRegistry } from '@toolgate/engine';
import { toolDenial } from '@toolgate/engine';
import type { DecisionMaker } from '@toolgate/engine/stores';
import type { UIMessage } from 'ai';
import { updateChatMessage } from '@/lib/db/chats';
import type { Db } from '@/lib/db/engine';
import { publishApprovalChange } from './approval-events';
import { approvalNotices } from './approval-notices';
import {
  type ApprovalEnd,
  isToolPart,
  mapToolPart,
  settleApprovalPart,
  type ToolPart,
} from './approval-parts';
import {
  type ApprovalRecord,
  claimDecision,
  getApproval,
  getStepsOfApprovals,
  listChatApprovals,
  listPendingRoleApprovalsOf,
  moveApproval,
} from './approval-rows';
import {
  approvalStatuses,
  type DeniedStatus,
  denialReasonOf,
  deniedStatuses,
  isDeniedStatus,
  reasonByStatus,
} from './approval-states';
import { approvalTiming } from './approval-timing';
import { auditApprovalEnd } from './audit-approval-end';
import { waitsForOthers } from './waiting-steps';

const unsettledStates = new Set([
  'input-streaming',
  'input-available',
  'approval-requested',
  'approval-responded',
]);

/** What a saved part shows when its call ran but nobody saw it finish (a crash while `executing`). */
export const unknownOutcomeText =
  'The outcome of this call is unknown: the server stopped while it ran. It was not run again; check before asking for it again.';

const endedEarlyText = 'The turn ended before this call finished.';

/** How a row that ended without a live turn shows in its saved part (naming who said no, when given). */
export function endOfRow(row: ApprovalRecord, decidedBy?: DecisionMaker): ApprovalEnd | undefined {
  if (isDeniedStatus(row.status)) {
    const denial = toolDenial(
      denialReasonOf({ ...row, status: row.status }),
      row.toolName,
      row.note,
      decidedBy,
    );
    return { kind: 'denied', reason: denial.reason, message: denial.message };
  }
  if (row.status === 'executing' || row.status === 'failed' || row.status === 'executed') {
    return { kind: 'error', errorText: unknownOutcomeText };
  }
  return undefined;
}

/**
 * The message a turn saves when it ends: no tool part is left "running". A call
 * still pending is stopped (nobody can answer it any more); a call with a row
 * ends as the row says; any other unfinished call ends as an error.
 */
export async function settleToolParts(db: Db, chatId: string, message: UIMessage): Promise<UIMessage> {
  const open = message.parts.filter(
    (part): part is ToolPart => isToolPart(part) && unsettledStates.has(part.state),
  );
  if (open.length === 0) return message;
  const rows = await listChatApprovals(db, chatId, approvalStatuses);
  let settled = message;
  for (const part of open) {
    let row = rows.find((candidate) => candidate.toolCallId === part.toolCallId);
    if (row?.status === 'pending') {
      if (await moveApproval(db, row.id, 'pending', 'stopped', { claim: true })) {
        publishApprovalChange(db, row);
        approvalNotices().settled(db, row.id, 'stopped');
      }
      row = { ...row, status: 'stopped' };
    }
    const end = row === undefined ? undefined : endOfRow(row);
    settled = mapToolPart(settled, part.toolCallId, (current) =>
      row !== undefined && end !== undefined
        ? settleApprovalPart(current, row.id, end)
        : ({ ...current, state: 'output-error', errorText: endedEarlyText, approval: undefined } as ToolPart),
    );
  }
  return settled;
}

/** Writes how `row` ended into its saved tool part. */
export async function patchSavedPart(db: Db, row: ApprovalRecord, end: ApprovalEnd): Promise<void> {
  await updateChatMessage(db, row.chatId, row.messageId, (message) =>
    mapToolPart(message, row.toolCallId, (part) =>
      unsettledStates.has(part.state) ? settleApprovalPart(part, row.id, end) : part,
    ),
  );
}

/**
 * Expires one pending approval whose deadline has passed at `now`: the row becomes
 * `expired` (compare-and-set, taken on at once: no turn waits for it any more), the
 * audit log records `timeout` and the saved card says so. Returns whether this did it.
 */
export async function expireApproval(db: Db, approvalId: string, now = Date.now()): Promise<boolean> {
  const row = await getApproval(db, approvalId);
  if (row?.status !== 'pending' || row.expiresAt > now) return false;
  if (!(await moveApproval(db, row.id, 'pending', 'expired', { claim: true }))) return false;
  publishApprovalChange(db, row);
  approvalNotices().settled(db, row.id, 'expired');
  await auditApprovalEnd(db, row, 'expired');
  await patchSavedPart(db, row, endOfRow({ ...row, status: 'expired' }) as ApprovalEnd);
  // Nobody will reply to a card nobody decided: a request that waited for someone else says so in the chat.
  await approvalNotices().requesterTold(db, row.id, { kind: 'expired' }, { notice: true });
  return true;
}

/**
 * Settles what nobody is left to settle, on read: a pending approval past its
 * deadline becomes `expired` (after a restart there may be no timer left to do it);
 * a call stuck in `executing` long after its server went away becomes `failed`
 * (never run again); a denial nobody took on is written into the saved part.
 * Returns the approved rows nobody took on, which the caller may continue.
 */
export async function settleChatApprovals(
  db: Db,
  chatId: string,
  { now = Date.now(), isRunningHere = false }: { now?: number; isRunningHere?: boolean } = {},
): Promise<ApprovalRecord[]> {
  const rows = await listChatApprovals(db, chatId, ['pending', 'approved', 'executing', ...deniedStatuses]);
  const orphans: ApprovalRecord[] = [];
  for (const row of rows) {
    const age = now - Date.parse(row.updatedAt);
    if (row.status === 'pending') {
      if (row.expiresAt <= now) await expireApproval(db, row.id, now);
    } else if (row.status === 'executing') {
      if (isRunningHere || age < approvalTiming.executionLeaseMs) continue;
      if (await moveApproval(db, row.id, 'executing', 'failed')) {
        await patchSavedPart(db, row, { kind: 'error', errorText: unknownOutcomeText });
      }
    } else if (row.status === 'approved') {
      if (!isRunningHere && age >= approvalTiming.unclaimedGraceMs) orphans.push(row);
    } else if (
      isDeniedStatus(row.status) &&
      !row.claimed &&
      !isRunningHere &&
      age >= approvalTiming.unclaimedGraceMs
    ) {
      if (await claimDecision(db, row.id, row.status)) {
        await auditApprovalEnd(db, row, row.status);
        await patchSavedPart(db, row, endOfRow(row) as ApprovalEnd);
      }
    }
  }
  return orphans;
}

/**
 * Ends every pending approval of a chat with `status` (Stop, a new message, deleting
 * the chat). Each row moves by compare-and-set, so a decision that got there first
 * keeps its row. The waiting call is woken wherever it waits and reads the row; a row
 * nobody waits for any more (its turn is gone) is written into the saved message here.
 * A new message (`superseded`) and Stop (`stopped`) leave alone the calls that wait for someone
 * else (a role step): the person may keep talking, or stop a later turn, while a supervisor
 * decides (a live turn's own role-step call still ends with its turn's abort).
 * Returns how many approvals this ended.
 */
export async function endPendingApprovals(
  db: Db,
  registry: ApprovalRegistry,
  chatId: string,
  status: Extract<DeniedStatus, 'stopped' | 'superseded' | 'closed'>,
): Promise<number> {
  let ended = 0;
  let rows = await listChatApprovals(db, chatId, ['pending']);
  if (status === 'superseded' || status === 'stopped') {
    const stepsById = await getStepsOfApprovals(
      db,
      rows.map((row) => row.id),
    );
    rows = rows.filter((row) => !waitsForOthers(stepsById.get(row.id) ?? []));
  }
  for (const row of rows) {
    if (await endPendingRow(db, registry, row, status)) ended += 1;
  }
  return ended;
}

/**
 * Ends one pending row with `status` (compare-and-set), tells listeners and the webhook,
 * wakes its waiting call, and settles a row no turn holds any more. Returns whether this
 * call moved it.
 */
export async function endPendingRow(
  db: Db,
  registry: ApprovalRegistry,
  row: ApprovalRecord,
  status: Extract<DeniedStatus, 'stopped' | 'superseded' | 'closed' | 'withdrawn'>,
  { note }: { note?: string } = {},
): Promise<boolean> {
  const decision = note === undefined ? {} : { decision: { note } };
  if (!(await moveApproval(db, row.id, 'pending', status, decision))) return false;
  publishApprovalChange(db, row);
  approvalNotices().settled(db, row.id, status);
  let woken = false;
  try {
    woken = await registry.resolve(row.id, row.chatId, false, row.ownerId ?? undefined);
  } catch {
    // Redis unreachable: nobody can be woken; the saved message is settled below.
  }
  if (!woken && (await claimDecision(db, row.id, status))) {
    const settled = { ...row, status, ...(note !== undefined && { note }) };
    await auditApprovalEnd(db, settled, status);
    const denial = toolDenial(reasonByStatus[status], row.toolName, note);
    await patchSavedPart(db, settled, { kind: 'denied', reason: denial.reason, message: denial.message });
  }
  return true;
}

/** The note a guest's request to a role ends with when the guest becomes an account. */
export const guestRequestEndedNote =
  'Asked as a guest, who has since signed in: a supervisor is asked only by a signed-in, verified user. Ask again.';

/**
 * Ends denied every pending approval of `guestId` that waits on a role step, before the
 * guest's rows become an account's: the account might hold that role, and four eyes must
 * never end with one person both asking and deciding (see
 * docs/decisions/2026-12-02-a-guest-is-an-identity-too.md). Each row moves by
 * compare-and-set, so a decision that got there first keeps it; the waiting call is woken
 * wherever it waits, and a row no turn holds any more is audited and settled here.
 * Returns how many approvals this ended.
 */
export async function endGuestRoleApprovals(
  db: Db,
  registry: ApprovalRegistry,
  guestId: string,
): Promise<number> {
  let ended = 0;
  for (const row of await listPendingRoleApprovalsOf(db, guestId)) {
    const note = guestRequestEndedNote;
    if (!(await moveApproval(db, row.id, 'pending', 'denied', { decision: { note } }))) continue;
    ended += 1;
    publishApprovalChange(db, row);
    approvalNotices().settled(db, row.id, 'denied');
    let woken = false;
    try {
      woken = await registry.resolve(row.id, row.chatId, false, row.ownerId ?? undefined);
    } catch {
      // Redis unreachable: nobody can be woken; the saved message is settled below.
    }
    if (!woken && (await claimDecision(db, row.id, 'denied'))) {
      const settled = { ...row, status: 'denied' as const, note };
      await auditApprovalEnd(db, settled, 'denied');
      const denial = toolDenial('denied', row.toolName, note);
      await patchSavedPart(db, settled, { kind: 'denied', reason: denial.reason, message: denial.message });
    }
  }
  return ended;
}
