import 'server-only';
import type { UIMessage } from 'ai';
import {
  type ApprovalRecord,
  type ApprovalStatus,
  claimApproval,
  type Db,
  listChatApprovals,
  transitionApproval,
  updateChatMessage,
} from '@/lib/db';
import { toolDenial } from '@/lib/shells';
import {
  type ApprovalEnd,
  isToolPart,
  mapToolPart,
  settleApprovalPart,
  type ToolPart,
} from './approval-parts';
import { auditParkedDenial } from './audit-parked-call';
import { deniedStatuses, isDeniedStatus, reasonByStatus } from './denied-statuses';

const unsettledStates = new Set([
  'input-streaming',
  'input-available',
  'approval-requested',
  'approval-responded',
]);

const everyStatus: ApprovalStatus[] = [
  'pending',
  'approved',
  'denied',
  'expired',
  'stopped',
  'superseded',
  'closed',
  'executing',
  'executed',
  'failed',
];

/** What a saved part shows when its call ran but nobody saw it finish (a crash while `executing`). */
export const unknownOutcomeText =
  'The outcome of this call is unknown: the server stopped while it ran. It was not run again; check before asking for it again.';

const endedEarlyText = 'The turn ended before this call finished.';

function endOfRow(row: ApprovalRecord): ApprovalEnd | undefined {
  if (isDeniedStatus(row.status)) {
    const denial = toolDenial(reasonByStatus[row.status], row.toolName, row.note);
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
  const rows = await listChatApprovals(db, chatId, everyStatus);
  let settled = message;
  for (const part of open) {
    let row = rows.find((candidate) => candidate.toolCallId === part.toolCallId);
    if (row?.status === 'pending') {
      await transitionApproval(db, row.id, 'pending', 'stopped', { claim: true });
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

/** How long a decided row may wait for the turn that should take it on before a reader does. */
export const unclaimedGraceMs = 5_000;
/** How long a call may run before a reader treats the server that ran it as gone. */
export const executionLeaseMs = 120_000;

/**
 * Settles what nobody is left to settle, on read: a pending approval past its
 * deadline becomes `expired` (after a restart there is no timer left to do it);
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
      if (row.expiresAt > now) continue;
      if (await transitionApproval(db, row.id, 'pending', 'expired', { claim: true })) {
        await auditParkedDenial(db, row, 'expired');
        await patchSavedPart(db, row, endOfRow({ ...row, status: 'expired' }) as ApprovalEnd);
      }
    } else if (row.status === 'executing') {
      if (isRunningHere || age < executionLeaseMs) continue;
      if (await transitionApproval(db, row.id, 'executing', 'failed')) {
        await patchSavedPart(db, row, { kind: 'error', errorText: unknownOutcomeText });
      }
    } else if (row.status === 'approved') {
      if (!isRunningHere && age >= unclaimedGraceMs) orphans.push(row);
    } else if (isDeniedStatus(row.status) && !row.claimed && !isRunningHere && age >= unclaimedGraceMs) {
      if (await claimApproval(db, row.id, row.status)) {
        await auditParkedDenial(db, row, row.status);
        await patchSavedPart(db, row, endOfRow(row) as ApprovalEnd);
      }
    }
  }
  return orphans;
}
