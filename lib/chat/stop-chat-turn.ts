import 'server-only';
import { endPendingApprovals } from '@/lib/approvals';
import { getChat, getDb } from '@/lib/db';
import { getApprovalRegistry } from '@/lib/server/stores';
import { waitAtMost } from './end-chat-approvals';
import { stopRemoteTurn } from './remote-turn-stops';
import { runningTurns } from './turn-streams';

/** How long Stop waits for the turn to save its settled message before answering. */
const stopWaitMs = 5_000;

/**
 * The Stop button: the chat's pending approvals end `stopped` (the model reads
 * `aborted`), the model stops, and the partial message is saved settled before
 * this answers, also when the turn runs on another instance (with Redis). Returns undefined for a chat the caller does not own, else
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
  const turn = runningTurns().get(chatId);
  if (turn !== undefined) {
    await endPendingApprovals(db, getApprovalRegistry(), chatId, 'stopped');
    turn.abort.abort();
    await waitAtMost(turn.done, stopWaitMs);
    return { stopped: true };
  }
  // Running on another instance (with Redis), or nowhere: that instance stops its model
  // and settles its own cards, so no reply is written after Stop; whatever still waits
  // (a parked turn's cards, or that instance did not answer in time) is settled here.
  const asked = await stopRemoteTurn(db, chatId, stopWaitMs);
  const ended = await endPendingApprovals(db, getApprovalRegistry(), chatId, 'stopped');
  return { stopped: ended > 0 || asked };
}
