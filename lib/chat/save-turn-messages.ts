import 'server-only';
import type { UIMessage } from 'ai';
import { type Db, saveMessages } from '@/lib/db';

/**
 * Saves a chat after a turn. Earlier messages are kept as the server stored them,
 * not as the client sent them back: the history a client sends is untrusted (and
 * was stripped of approval state for the model), so it must not rewrite the record.
 * The turn's own response (always a new message: the last message sent is the
 * user's) is taken from `messages`, after `annotate`.
 */
export async function saveTurnMessages(
  db: Db,
  chatId: string,
  messages: UIMessage[],
  annotate: (message: UIMessage) => UIMessage = (message) => message,
): Promise<void> {
  const last = messages.length - 1;
  await saveMessages(
    db,
    chatId,
    messages.map((message, index) => (index === last ? annotate(message) : message)),
    { keepStored: true },
  );
}
