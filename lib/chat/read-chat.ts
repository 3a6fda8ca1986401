import 'server-only';
import type { UIMessage } from 'ai';
import { readChatApprovals } from '@/lib/approvals';
import { getChat, getChatMessages, getChatStream, getDb, listChats } from '@/lib/db';
import { continueParkedTurn } from './continue-parked-turn';
import { runningTurns } from './turn-streams';

/** A saved chat as `GET /api/chats/:id` answers it. */
export type SavedChat = {
  id: string;
  title: string;
  worker: string | null;
  messages: UIMessage[];
  /**
   * The turn running now, if any: its stream (`GET /api/chat/:id/stream`) rebuilds
   * message `messageId` from its first `baseParts` parts (from nothing when -1), so a
   * page that resumes drops the rest first.
   */
  activeStream: { messageId: string; baseParts: number } | null;
};

/**
 * A saved chat with its messages, if the caller owns it (or it has no owner). What
 * nobody is left to settle is settled first (a card past its deadline reads Expired,
 * not "waiting", after a restart); a decision nobody took on is continued.
 */
export async function readOwnedChat({
  chatId,
  ownerId,
}: {
  chatId: string;
  ownerId?: string;
}): Promise<SavedChat | undefined> {
  const db = await getDb();
  const chat = await getChat(db, chatId);
  if (chat === undefined || (chat.ownerId != null && chat.ownerId !== ownerId)) return undefined;
  const approvals = await readChatApprovals(db, chatId, { isRunningHere: runningTurns().has(chatId) });
  for (const parked of approvals.parked) await continueParkedTurn(db, parked.approvalId, parked.chatId);
  const stream = await getChatStream(db, chatId);
  const messages = await approvals.withRemainingTime(await getChatMessages(db, chatId));
  return {
    id: chat.id,
    title: chat.title,
    worker: chat.worker,
    messages,
    activeStream: stream === undefined ? null : { messageId: stream.messageId, baseParts: stream.baseParts },
  };
}

/** The caller's chats, newest first; a browser without an owner id has none. */
export async function listOwnedChats(ownerId: string | undefined) {
  if (ownerId === undefined) return [];
  return (await listChats(await getDb(), ownerId)).map(({ id, title, worker, updatedAt }) => ({
    id,
    title,
    worker,
    updatedAt,
  }));
}
