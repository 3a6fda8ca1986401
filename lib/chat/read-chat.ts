import 'server-only';
import type { UIMessage } from 'ai';
import { getChat, getChatMessages, getDb, listChats } from '@/lib/db';

/** A saved chat with its messages, if the caller owns it (or it has no owner). */
export function readOwnedChat({
  chatId,
  ownerId,
}: {
  chatId: string;
  ownerId?: string;
}): { id: string; title: string; worker: string | null; messages: UIMessage[] } | undefined {
  const db = getDb();
  const chat = getChat(db, chatId);
  if (chat === undefined || (chat.ownerId != null && chat.ownerId !== ownerId)) return undefined;
  return { id: chat.id, title: chat.title, worker: chat.worker, messages: getChatMessages(db, chatId) };
}

/** The caller's chats, newest first; a browser without an owner id has none. */
export function listOwnedChats(ownerId: string | undefined) {
  if (ownerId === undefined) return [];
  return listChats(getDb(), ownerId).map(({ id, title, worker, updatedAt }) => ({
    id,
    title,
    worker,
    updatedAt,
  }));
}
