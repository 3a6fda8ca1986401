import 'server-only';
import { clearChatStream, getChat, getChatStream, getDb } from '@/lib/db';
import { followTurn, getStreamContext } from './turn-streams';

/**
 * The running turn's stream of a chat the caller owns, from its start, for
 * `GET /api/chat/:id/stream`. `null` when no turn of the chat is running (a
 * record left by a server that went away is cleared); `undefined` for a chat
 * the caller does not own.
 */
export async function resumeChatStream({
  chatId,
  ownerId,
}: {
  chatId: string;
  ownerId?: string;
}): Promise<ReadableStream<string> | null | undefined> {
  const db = await getDb();
  const chat = await getChat(db, chatId);
  if (chat === undefined || (chat.ownerId != null && chat.ownerId !== ownerId)) return undefined;
  const record = await getChatStream(db, chatId);
  if (record === undefined) return null;
  let stream: ReadableStream<string> | null | undefined;
  try {
    stream = await getStreamContext().resumeExistingStream(record.streamId);
  } catch {
    // Its producer did not answer: the server running the turn is gone.
    stream = null;
  }
  if (!stream) {
    await clearChatStream(db, chatId, record.streamId);
    return null;
  }
  return followTurn(chatId, record.streamId, stream);
}
