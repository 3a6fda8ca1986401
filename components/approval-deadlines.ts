import type { ToolgateMessage } from './api-types';

/*
 * Local deadlines of approval cards, by approval id, measured from when the page
 * received the server's remaining time: the client's clock may be wrong, a
 * duration since receipt is not.
 */
const deadlineByApprovalId = new Map<string, number>();

type Descriptor = { remainingMs?: unknown; timeoutMs?: unknown; expiresAt?: unknown };

/** Records the remaining time the server sent with each waiting card of a loaded chat. */
export function rememberDeadlines(messages: ToolgateMessage[], receivedAt = Date.now()): void {
  for (const message of messages) {
    for (const part of message.parts) {
      const approval = (part as { approval?: { id?: unknown; descriptor?: Descriptor } }).approval;
      const remainingMs = approval?.descriptor?.remainingMs;
      if (typeof approval?.id === 'string' && typeof remainingMs === 'number') {
        deadlineByApprovalId.set(approval.id, receivedAt + Math.max(0, remainingMs));
      }
    }
  }
}

/**
 * The local deadline of a card: the remembered one, else (a card that just streamed in)
 * its full timeout from now, which is when it arrived.
 */
export function localDeadlineOf(approvalId: string, descriptor: Descriptor | undefined): number | null {
  const remembered = deadlineByApprovalId.get(approvalId);
  if (remembered !== undefined) return remembered;
  const timeoutMs = descriptor?.timeoutMs;
  if (typeof timeoutMs !== 'number')
    return typeof descriptor?.expiresAt === 'number' ? descriptor.expiresAt : null;
  const deadline = Date.now() + timeoutMs;
  deadlineByApprovalId.set(approvalId, deadline);
  return deadline;
}

/** Moves a card's local deadline (the server gave it more time, `remainingMs` from now). */
export function extendLocalDeadline(
  approvalId: string,
  remainingMs: number,
  receivedAt = Date.now(),
): number {
  const deadline = receivedAt + Math.max(0, remainingMs);
  deadlineByApprovalId.set(approvalId, deadline);
  return deadline;
}
