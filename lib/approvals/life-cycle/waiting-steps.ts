import type { ApprovalStepRecord } from './approval-rows';

/**
 * Whether a pending call waits only for others: a role step is open and no step of its
 * requester is. Such a call is part of the conversation, not a card the person must answer:
 * a new message leaves it waiting.
 */
export function waitsForOthers(steps: readonly ApprovalStepRecord[]): boolean {
  const open = steps.filter((step) => step.decision === undefined);
  return open.some((step) => step.kind === 'role') && !open.some((step) => step.kind === 'requester');
}
