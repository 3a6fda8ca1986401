import 'server-only';
import { getChat, getDb } from '@/lib/db';
import { getApprovalRegistry } from '@/lib/server/stores';
import { endPendingApprovals, waitAtMost } from './end-chat-approvals';
import { runningTurns } from './turn-streams';

/** How long Stop waits for the turn to save its settled message before answering. */
const stopWaitMs = 5_000;

/**
 * The Stop button: the chat's pending approvals end `stopped` (the model reads
 * `aborted`), the model stops, and the partial message is saved settled before
 * this answers. Returns undefined for a chat the caller does not own, else
 * whether anything was stopped.
 */
export async function stopChatTurn({
  chatId,
  ownerId,
}: {
  chatId: string;
  ownerId?: string;
}): Promise<{ stopped: boolean } | undefined> {
  const db = await getDb();
  const chat = await getChat(db, chatId);
  if (chat === undefined || (chat.ownerId != null && chat.ownerId !== ownerId)) return undefined;
  const ended = await endPendingApprovals(db, getApprovalRegistry(), chatId, 'stopped');
  const turn = runningTurns().get(chatId);
  if (turn !== undefined) {
    turn.abort.abort();
    await waitAtMost(turn.done, stopWaitMs);
  }
  return { stopped: ended > 0 || turn !== undefined };
}
