import type { UIMessage } from 'ai';
import type { Selectable } from 'kysely';
import { type Db, engineOf } from './engine';
import type { ChatTable } from './schema';
import { writeTransaction } from './write-transaction';

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

type ChatRow = Selectable<ChatTable>;

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
export async function saveChat(
  db: Db,
  chat: { id: string; ownerId: string | null; title: string; worker: string },
): Promise<ChatRecord> {
  const now = new Date().toISOString();
  const row = await db
    .insertInto('chats')
    .values({
      id: chat.id,
      owner_id: chat.ownerId,
      title: chat.title,
      worker: chat.worker,
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) =>
      conflict.column('id').doUpdateSet((eb) => ({
        title: eb.ref('excluded.title'),
        worker: eb.ref('excluded.worker'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
  return toChat(row);
}

/**
 * Inside a write transaction: whether the chat exists, locking its row on Postgres so two
 * saves of one chat take turns (SQLite's transaction already holds the write lock).
 */
async function lockChat(transaction: Db, chatId: string): Promise<boolean> {
  const chat = await transaction
    .selectFrom('chats')
    .select('id')
    .where('id', '=', chatId)
    .$if(engineOf(transaction) === 'postgres', (query) => query.forUpdate())
    .executeTakeFirst();
  return chat !== undefined;
}

/**
 * Replaces the chat's messages with `messages`, in order, in one transaction (a reader never
 * sees half a conversation). A message that was already stored keeps its `created_at`.
 * With `keepStored`, a message that was already stored also keeps its stored content: the
 * server's record wins over a copy a client sent back.
 * Returns false and writes nothing when the chat no longer exists (it was deleted while its
 * last turn was still streaming).
 */
export async function saveMessages(
  db: Db,
  chatId: string,
  messages: readonly UIMessage[],
  { keepStored = false }: { keepStored?: boolean } = {},
): Promise<boolean> {
  return writeTransaction(db, async (transaction) => {
    if (!(await lockChat(transaction, chatId))) return false;
    const now = new Date().toISOString();
    const stored = await transaction
      .selectFrom('chat_messages')
      .select(['id', 'message', 'created_at'])
      .where('chat_id', '=', chatId)
      .execute();
    const storedById = new Map(stored.map((row) => [row.id, row]));
    await transaction.deleteFrom('chat_messages').where('chat_id', '=', chatId).execute();
    const rows = messages.map((message, position) => {
      const previous = storedById.get(message.id);
      return {
        chat_id: chatId,
        id: message.id,
        position,
        role: message.role,
        message: keepStored && previous !== undefined ? previous.message : JSON.stringify(message),
        created_at: previous?.created_at ?? now,
      };
    });
    // In batches: both engines cap the parameters of one statement.
    for (let start = 0; start < rows.length; start += 500) {
      await transaction
        .insertInto('chat_messages')
        .values(rows.slice(start, start + 500))
        .execute();
    }
    await transaction.updateTable('chats').set({ updated_at: now }).where('id', '=', chatId).execute();
    return true;
  });
}

/** The chat with this id, or undefined. */
export async function getChat(db: Db, id: string): Promise<ChatRecord | undefined> {
  const row = await db.selectFrom('chats').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : toChat(row);
}

/** The chat's messages in conversation order (empty for an unknown chat). */
export async function getChatMessages(db: Db, chatId: string): Promise<UIMessage[]> {
  const rows = await db
    .selectFrom('chat_messages')
    .select('message')
    .where('chat_id', '=', chatId)
    .orderBy('position')
    .execute();
  return rows.map((row) => JSON.parse(row.message) as UIMessage);
}

/** The id of the chat's newest message from its user, or undefined. */
export async function newestUserMessageId(db: Db, chatId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('chat_messages')
    .select('id')
    .where('chat_id', '=', chatId)
    .where('role', '=', 'user')
    .orderBy('position', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

/** One owner's chats, most recently updated first. */
export async function listChats(
  db: Db,
  ownerId: string,
  { limit = 100 }: { limit?: number } = {},
): Promise<ChatRecord[]> {
  const rows = await db
    .selectFrom('chats')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .orderBy('updated_at', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(toChat);
}

/** Deletes the chat and (through ON DELETE CASCADE) its messages. Returns whether it existed. */
export async function deleteChat(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('chats').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Saves one message of a chat: replaces it where it is stored, or appends it after the
 * last one. A turn saves only the messages it makes, so two turns of one chat (one
 * ending while the next begins) never overwrite each other's messages.
 * Returns false and writes nothing when the chat no longer exists.
 */
export async function upsertMessage(db: Db, chatId: string, message: UIMessage): Promise<boolean> {
  return writeTransaction(db, async (transaction) => {
    if (!(await lockChat(transaction, chatId))) return false;
    const now = new Date().toISOString();
    const updated = await transaction
      .updateTable('chat_messages')
      .set({ message: JSON.stringify(message), role: message.role })
      .where('chat_id', '=', chatId)
      .where('id', '=', message.id)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      const last = await transaction
        .selectFrom('chat_messages')
        .select((eb) => eb.fn.max('position').as('position'))
        .where('chat_id', '=', chatId)
        .executeTakeFirst();
      const position = last?.position == null ? 0 : Number(last.position) + 1;
      await transaction
        .insertInto('chat_messages')
        .values({
          chat_id: chatId,
          id: message.id,
          position,
          role: message.role,
          message: JSON.stringify(message),
          created_at: now,
        })
        .execute();
    }
    await transaction.updateTable('chats').set({ updated_at: now }).where('id', '=', chatId).execute();
    return true;
  });
}

/**
 * Changes one stored message in place, read and written in one transaction, so a
 * change made meanwhile by another writer is not lost. `change` returning undefined
 * writes nothing. Returns the message as saved.
 */
export async function updateChatMessage(
  db: Db,
  chatId: string,
  id: string,
  change: (message: UIMessage) => UIMessage | undefined,
): Promise<UIMessage | undefined> {
  return writeTransaction(db, async (transaction) => {
    const row = await transaction
      .selectFrom('chat_messages')
      .select('message')
      .where('chat_id', '=', chatId)
      .where('id', '=', id)
      .$if(engineOf(transaction) === 'postgres', (query) => query.forUpdate())
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const changed = change(JSON.parse(row.message) as UIMessage);
    if (changed === undefined) return undefined;
    await transaction
      .updateTable('chat_messages')
      .set({ message: JSON.stringify(changed) })
      .where('chat_id', '=', chatId)
      .where('id', '=', id)
      .execute();
    return changed;
  });
}
