import 'server-only';
import {
  type ApprovalDecisionRequest,
  type ApprovalDecisionResult,
  type DeciderInput,
  decideApproval,
} from '@/lib/approvals';
import { getDb } from '@/lib/db';
import { continueParkedTurn } from './continue-parked-turn';

/**
 * A person's decision, carried out: lib/approvals records it and wakes the call wherever
 * it waits; a settled call no live turn took over (its process is gone, or it parked) comes
 * back here, and its turn is continued from the database.
 */
export async function carryOutDecision(
  decision: ApprovalDecisionRequest,
  who?: DeciderInput,
): Promise<ApprovalDecisionResult> {
  const result = await decideApproval(decision, who);
  if (result.status === 200 && result.parked !== undefined) {
    await continueParkedTurn(await getDb(), result.parked.approvalId, result.parked.chatId);
  }
  return result;
}
