import type { Db } from './engine';

/** The stream a chat's running turn writes: where `GET /api/chat/:id/stream` resumes. */
export type ChatStreamRecord = {
  chatId: string;
  streamId: string;
  /** The assistant message the stream builds. */
  messageId: string;
  /** Parts that message had when the stream began (a reader drops the rest); -1 if the stream starts it. */
  baseParts: number;
};

/** Records (or replaces) the chat's running stream. */
export async function setChatStream(db: Db, stream: ChatStreamRecord): Promise<void> {
  const values = {
    chat_id: stream.chatId,
    stream_id: stream.streamId,
    message_id: stream.messageId,
    base_parts: stream.baseParts,
    started_at: new Date().toISOString(),
  };
  await db
    .insertInto('chat_streams')
    .values(values)
    .onConflict((conflict) =>
      conflict.column('chat_id').doUpdateSet({
        stream_id: values.stream_id,
        message_id: values.message_id,
        base_parts: values.base_parts,
        started_at: values.started_at,
      }),
    )
    .execute();
}

/** The chat's running stream, if one is recorded. */
export async function getChatStream(db: Db, chatId: string): Promise<ChatStreamRecord | undefined> {
  const row = await db
    .selectFrom('chat_streams')
    .selectAll()
    .where('chat_id', '=', chatId)
    .executeTakeFirst();
  return row === undefined
    ? undefined
    : { chatId: row.chat_id, streamId: row.stream_id, messageId: row.message_id, baseParts: row.base_parts };
}

/** Forgets the chat's stream, only if it is still `streamId` (a newer turn's record stays). */
export async function clearChatStream(db: Db, chatId: string, streamId: string): Promise<void> {
  await db
    .deleteFrom('chat_streams')
    .where('chat_id', '=', chatId)
    .where('stream_id', '=', streamId)
    .execute();
}
