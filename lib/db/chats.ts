import type { UIMessage } from 'ai';
import type { SqliteDatabase } from './open-database';
import { statement } from './statement';

/** A saved conversation (messages are stored separately, see `saveMessages`). */
export type ChatRecord = {
  id: string;
  /** Who may read and continue the chat; null for a chat saved without an owner. */
  ownerId: string | null;
  title: string;
  /** The worker the chat was last pinned to or routed to (`auto` when it routes each turn). */
  worker: string;
  createdAt: string;
  updatedAt: string;
};

type ChatRow = {
  id: string;
  owner_id: string | null;
  title: string;
  worker: string;
  created_at: string;
  updated_at: string;
};

function toChat(row: ChatRow): ChatRecord {
  return {
    id: row.id,
    ownerId: row.owner_id,
    title: row.title,
    worker: row.worker,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * Creates the chat or updates its title, worker and `updatedAt`. The owner of an existing
 * chat is never changed here: checking that the caller owns the chat is the caller's job,
 * and a save must not quietly move a chat to someone else.
 */
export function saveChat(
  db: SqliteDatabase,
  chat: { id: string; ownerId: string | null; title: string; worker: string },
): ChatRecord {
  const now = new Date().toISOString();
  const row = statement<[string, string | null, string, string, string, string], ChatRow>(
    db,
    `INSERT INTO chats (id, owner_id, title, worker, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET title = excluded.title, worker = excluded.worker, updated_at = excluded.updated_at
       RETURNING *`,
  ).get(chat.id, chat.ownerId, chat.title, chat.worker, now, now);
  if (row === undefined) throw new Error(`Saving chat ${chat.id} returned no row`);
  return toChat(row);
}

/**
 * Replaces the chat's messages with `messages`, in order, in one transaction (a reader never
 * sees half a conversation). A message that was already stored keeps its `created_at`.
 * With `keepStored`, a message that was already stored also keeps its stored content: the
 * server's record wins over a copy a client sent back.
 * Returns false and writes nothing when the chat no longer exists (it was deleted while its
 * last turn was still streaming).
 */
export function saveMessages(
  db: SqliteDatabase,
  chatId: string,
  messages: readonly UIMessage[],
  { keepStored = false }: { keepStored?: boolean } = {},
): boolean {
  const chatExists = statement<[string]>(db, 'SELECT 1 FROM chats WHERE id = ?');
  const existing = statement<[string], { id: string; message: string; created_at: string }>(
    db,
    'SELECT id, message, created_at FROM chat_messages WHERE chat_id = ?',
  );
  const remove = statement<[string]>(db, 'DELETE FROM chat_messages WHERE chat_id = ?');
  const insert = statement<[string, string, number, string, string, string]>(
    db,
    'INSERT INTO chat_messages (chat_id, id, position, role, message, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const touch = statement<[string, string]>(db, 'UPDATE chats SET updated_at = ? WHERE id = ?');
  return db
    .transaction(() => {
      if (chatExists.get(chatId) === undefined) return false;
      const now = new Date().toISOString();
      const storedById = new Map(existing.all(chatId).map((row) => [row.id, row]));
      remove.run(chatId);
      messages.forEach((message, position) => {
        const stored = storedById.get(message.id);
        const content = keepStored && stored !== undefined ? stored.message : JSON.stringify(message);
        insert.run(chatId, message.id, position, message.role, content, stored?.created_at ?? now);
      });
      touch.run(now, chatId);
      return true;
    })
    .immediate();
}

/** The chat with this id, or undefined. */
export function getChat(db: SqliteDatabase, id: string): ChatRecord | undefined {
  const row = statement<[string], ChatRow>(db, 'SELECT * FROM chats WHERE id = ?').get(id);
  return row === undefined ? undefined : toChat(row);
}

/** The chat's messages in conversation order (empty for an unknown chat). */
export function getChatMessages(db: SqliteDatabase, chatId: string): UIMessage[] {
  return statement<[string], { message: string }>(
    db,
    'SELECT message FROM chat_messages WHERE chat_id = ? ORDER BY position',
  )
    .all(chatId)
    .map((row) => JSON.parse(row.message) as UIMessage);
}

/** One owner's chats, most recently updated first. */
export function listChats(
  db: SqliteDatabase,
  ownerId: string,
  { limit = 100 }: { limit?: number } = {},
): ChatRecord[] {
  return statement<[string, number], ChatRow>(
    db,
    'SELECT * FROM chats WHERE owner_id = ? ORDER BY updated_at DESC, rowid DESC LIMIT ?',
  )
    .all(ownerId, limit)
    .map(toChat);
}

/** Deletes the chat and (through ON DELETE CASCADE) its messages. Returns whether it existed. */
export function deleteChat(db: SqliteDatabase, id: string): boolean {
  return statement<[string]>(db, 'DELETE FROM chats WHERE id = ?').run(id).changes > 0;
}
