import 'server-only';
import type { Db } from '@/lib/db/engine';
import { getApproval, getApprovalSteps, listChatApprovals } from './approval-rows';
import { approvalStatuses } from './approval-states';

/** Who may undo a call that waited for approval: its requester, or the holders of the roles that allowed it. */
export type UndoRights = {
  chatId: string;
  toolCallId: string;
  /** The requester (whose effect record it is). */
  ownerId: string | null;
  /**
   * The roles whose steps allowed the call. Empty: the requester approved it alone and
   * undoing stays theirs. Otherwise only a holder of one of these roles may undo it.
   */
  approvedByRoles: string[];
};

/**
 * Undo belongs to whoever approved: a write a role step allowed is undone by a holder of that
 * role, not by its requester; a write its requester approved stays theirs. Found by the card
 * (`approvalId`) or by the call (`chatId`, `toolCallId`); undefined for a call that never waited.
 */
export async function undoRightsOf(
  db: Db,
  which: { approvalId: string } | { chatId: string; toolCallId: string },
): Promise<UndoRights | undefined> {
  const row =
    'approvalId' in which
      ? await getApproval(db, which.approvalId)
      : (await listChatApprovals(db, which.chatId, approvalStatuses)).find(
          (candidate) => candidate.toolCallId === which.toolCallId,
        );
  if (row === undefined) return undefined;
  const steps = await getApprovalSteps(db, row.id);
  const approvedByRoles = [
    ...new Set(
      steps.flatMap((step) => (step.kind === 'role' && step.decision === 'allow' ? [step.role] : [])),
    ),
  ];
  return { chatId: row.chatId, toolCallId: row.toolCallId, ownerId: row.ownerId, approvedByRoles };
}
