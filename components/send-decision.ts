import type { ApprovalDecision, ApprovalDecisionRequest } from './api-types';

/**
 * Sends a person's decision to `POST /api/chat/approve`; the session cookie says who decides.
 * Resolves with the route's answer: the decision's status, or `{ error }` (with `fieldErrors`
 * for an edit the tool refuses) when the route answered that deciding this way cannot count.
 * Rejects when it is not known that anything was decided (no network, the server unavailable
 * or failing), so the card stays decidable and the person can send again.
 */
export async function sendDecision(decision: ApprovalDecisionRequest): Promise<ApprovalDecision> {
  const response = await fetch('/api/chat/approve', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(decision),
  });
  if (response.status >= 500) throw new Error(`POST /api/chat/approve answered ${response.status}`);
  const answer = (await response.json()) as ApprovalDecision;
  return response.status === 400 ? { ...answer, refused: true } : answer;
}
