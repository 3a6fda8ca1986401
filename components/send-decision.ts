import { decideApprovalAction, extendApprovalAction } from '@/app/actions/approval-decisions';
import type { ApprovalDecision, ApprovalDecisionRequest } from './api-types';

/**
 * Sends a person's decision through the page's server action, which parses it with the same
 * schema as `POST /api/chat/approve` and calls the same function; the session cookie says
 * who decides. Resolves with the answer: the decision's status, or `{ error }` (with
 * `fieldErrors` for an edit the tool refuses) when deciding this way cannot count. Rejects
 * when it is not known that anything was decided (no network, the server unavailable or
 * failing), so the card stays decidable and the person can send again.
 */
export async function sendDecision(decision: ApprovalDecisionRequest): Promise<ApprovalDecision> {
  const answer = await decideApprovalAction(decision);
  if (answer.status >= 500) throw new Error(`the decision answered ${answer.status}`);
  const body = answer.body as ApprovalDecision;
  // A 400 keeps the card's controls: the server's reason is shown beside them.
  return answer.status === 400 ? { ...body, refused: true } : body;
}

/**
 * "More time" through the page's server action (the same schema and function as
 * `POST /api/chat/approve/extend`): the new remaining time, `'exhausted'` after the third, or
 * undefined when nothing was extended.
 */
export async function sendExtension(request: {
  approvalId: string;
  chatId: string;
}): Promise<{ remainingMs: number } | 'exhausted' | undefined> {
  const answer = await extendApprovalAction(request).catch(() => undefined);
  if (answer?.status === 409) return 'exhausted';
  if (answer?.status !== 200) return undefined;
  return { remainingMs: (answer.body as { remainingMs: number }).remainingMs };
}
