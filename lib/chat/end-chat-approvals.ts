import 'server-only';
import { endPendingApprovals } from '@/lib/approvals';
import type { Db } from '@/lib/db';
import type { ApprovalRegistry } from '@/lib/stores';
import { runningTurns } from './turn-streams';

/** How long a new message waits for the turn it supersedes to write its last words. */
const supersedeWaitMs = 3_000;

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
  if (ended > 0 && previous !== undefined) await waitAtMost(previous.done, supersedeWaitMs);
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
