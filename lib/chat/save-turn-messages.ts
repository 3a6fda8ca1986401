import 'server-only';
import type { UIMessage } from 'ai';
import { getChatMessages, type SqliteDatabase, saveMessages } from '@/lib/db';

/**
 * Saves a chat after a turn. Earlier messages are kept as the server stored them,
 * not as the client sent them back: the history a client sends is untrusted (and
 * was stripped of approval state for the model), so it must not rewrite the record.
 * Only the turn's own last message is taken from `messages`, after `annotate`.
 */
export function saveTurnMessages(
  db: SqliteDatabase,
  chatId: string,
  messages: UIMessage[],
  annotate: (message: UIMessage) => UIMessage = (message) => message,
): void {
  const storedById = new Map(getChatMessages(db, chatId).map((message) => [message.id, message]));
  const last = messages.length - 1;
  saveMessages(
    db,
    chatId,
    messages.map((message, index) =>
      index === last ? annotate(message) : (storedById.get(message.id) ?? message),
    ),
  );
}
