import 'server-only';
import type { UIMessage } from 'ai';
import { getChat, getChatMessages, getDb, listChats } from '@/lib/db';

/** A saved chat with its messages, if the caller owns it (or it has no owner). */
export async function readOwnedChat({
  chatId,
  ownerId,
}: {
  chatId: string;
  ownerId?: string;
}): Promise<{ id: string; title: string; worker: string | null; messages: UIMessage[] } | undefined> {
  const db = await getDb();
  const chat = await getChat(db, chatId);
  if (chat === undefined || (chat.ownerId != null && chat.ownerId !== ownerId)) return undefined;
  return { id: chat.id, title: chat.title, worker: chat.worker, messages: await getChatMessages(db, chatId) };
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
