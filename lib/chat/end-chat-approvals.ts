import 'server-only';
import { approvalTiming, endPendingApprovals } from '@/lib/approvals';
import type { Db } from '@/lib/db';
import type { ApprovalRegistry } from '@/lib/stores';
import { runningTurns } from './turn-streams';

/**
 * A new message answers the chat's waiting cards with `superseded`. The turn that
 * asked (if it runs here) gets a moment to end, so the new turn's history has its reply.
 */
export async function settleChatAsSuperseded(
  db: Db,
  registry: ApprovalRegistry,
  chatId: string,
  _ownerId?: string,
): Promise<void> {
  const previous = runningTurns().get(chatId);
  const ended = await endPendingApprovals(db, registry, chatId, 'superseded');
  if (ended > 0 && previous !== undefined) await waitAtMost(previous.done, approvalTiming.supersedeWaitMs);
}

/** Resolves when `promise` settles or `ms` have passed, whichever is first. */
export async function waitAtMost(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise.catch(() => undefined),
    new Promise((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}
