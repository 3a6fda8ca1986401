import 'server-only';
import type { ApprovalRegistry } from '@toolgate/engine';
import type { Db } from '@/lib/db/engine';
import { type ApprovalRecord, getApproval, getStepsOfApprovals, listChatApprovals } from './approval-rows';
import { approverSummary } from './approver-text';
import { endPendingRow } from './settle-approvals';
import { waitsForOthers } from './waiting-steps';

/**
 * A call of this chat that waits for someone other than the person chatting (a role step):
 * what the model is told, so "any update?" gets who it waits for and until when.
 */
export type WaitingRequest = {
  approvalId: string;
  tool: string;
  /** The call's one-line summary, by language. */
  summary?: Record<'en' | 'zh', string>;
  /** The roles whose step is still open (after an escalation: the role it went to). */
  waitsFor: string[];
  /** When it was asked (epoch ms). */
  askedAt: number;
  /** Its deadline (epoch ms). */
  expiresAt: number;
  /** Escalated to this role, when it was. */
  escalatedTo?: string;
};

/** This chat's calls that wait for someone else, oldest first (deadline still ahead). */
export async function listWaitingRequests(
  db: Db,
  chatId: string,
  now = Date.now(),
): Promise<WaitingRequest[]> {
  const rows = (await listChatApprovals(db, chatId, ['pending'])).filter((row) => row.expiresAt > now);
  const stepsById = await getStepsOfApprovals(
    db,
    rows.map((row) => row.id),
  );
  return rows.flatMap((row) => {
    const steps = stepsById.get(row.id) ?? [];
    if (!waitsForOthers(steps)) return [];
    const open = steps.filter((step) => step.decision === undefined && step.kind === 'role');
    const escalatedTo = steps.find((step) => step.escalatedTo !== undefined)?.escalatedTo;
    const summary = approverSummary(row.toolName, row.editedInput ?? row.input);
    return [
      {
        approvalId: row.id,
        tool: row.toolName,
        ...(summary !== undefined && { summary }),
        waitsFor: [...new Set(open.flatMap((step) => (step.kind === 'role' ? [step.role] : [])))],
        askedAt: Date.parse(row.createdAt),
        expiresAt: row.expiresAt,
        ...(escalatedTo !== undefined && { escalatedTo }),
      },
    ];
  });
}

/**
 * withdraw: the requester takes back a call of theirs that waits for someone else, in the chat
 * it was asked in. The row moves `pending → withdrawn` (compare-and-set: a decision that got
 * there first keeps it), approvers' lists and pages hear of it, the waiting call is woken
 * wherever it waits, and a call no turn holds is audited and its saved card settled here.
 * Returns the row as it was, or undefined when there was nothing of theirs to withdraw.
 */
export async function withdrawApproval(
  db: Db,
  registry: ApprovalRegistry,
  { approvalId, chatId, ownerId }: { approvalId: string; chatId: string; ownerId: string },
): Promise<ApprovalRecord | undefined> {
  const row = await getApproval(db, approvalId);
  if (row === undefined || row.chatId !== chatId || row.ownerId !== ownerId || row.status !== 'pending')
    return undefined;
  const steps = (await getStepsOfApprovals(db, [row.id])).get(row.id) ?? [];
  if (!waitsForOthers(steps)) return undefined;
  return (await endPendingRow(db, registry, row, 'withdrawn')) ? row : undefined;
}

/** A pending call of this chat that waits for the person chatting (their own card). */
export type OwnCard = { approvalId: string; tool: string; summary?: Record<'en' | 'zh', string> };

/** This chat's pending calls that wait for its own user's decision, oldest first. */
export async function listOwnCards(db: Db, chatId: string): Promise<OwnCard[]> {
  const rows = await listChatApprovals(db, chatId, ['pending']);
  const stepsById = await getStepsOfApprovals(
    db,
    rows.map((row) => row.id),
  );
  return rows.flatMap((row) => {
    if (waitsForOthers(stepsById.get(row.id) ?? [])) return [];
    const summary = approverSummary(row.toolName, row.editedInput ?? row.input);
    return [{ approvalId: row.id, tool: row.toolName, ...(summary !== undefined && { summary }) }];
  });
}
