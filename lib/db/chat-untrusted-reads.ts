import type { Db } from './engine';

/** An untrusted read a chat holds: an output's call id and tool, or an attached file (`file:<name>`). */
export type ChatUntrustedRead = { toolCallId: string; tool: string; unreadable: boolean; readAt: string };

/** Inserts at most this many rows per statement (bound parameters stay well under every limit). */
const rowsPerInsert = 200;

/**
 * Keeps untrusted reads of a chat; a read already kept (cleared or not) stays as it is, so a
 * read the person cleared is never marked again by the history that holds it.
 */
export async function recordChatUntrustedReads(
  db: Db,
  chatId: string,
  reads: readonly { toolCallId: string; tool: string; unreadable?: boolean }[],
  now = new Date().toISOString(),
): Promise<void> {
  for (let start = 0; start < reads.length; start += rowsPerInsert) {
    await db
      .insertInto('chat_untrusted_reads')
      .values(
        reads.slice(start, start + rowsPerInsert).map((read) => ({
          chat_id: chatId,
          tool_call_id: read.toolCallId,
          tool: read.tool,
          unreadable: read.unreadable === true ? 1 : 0,
          read_at: now,
          cleared_at: null,
        })),
      )
      .onConflict((conflict) => conflict.columns(['chat_id', 'tool_call_id']).doNothing())
      .execute();
  }
}

/** The call ids of every read a chat has kept, cleared or not. */
export async function chatUntrustedReadIds(db: Db, chatId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('chat_untrusted_reads')
    .select('tool_call_id')
    .where('chat_id', '=', chatId)
    .execute();
  return new Set(rows.map((row) => row.tool_call_id));
}

/** The reads that mark a chat (not cleared), newest first. */
export async function markingChatUntrustedReads(db: Db, chatId: string): Promise<ChatUntrustedRead[]> {
  const rows = await db
    .selectFrom('chat_untrusted_reads')
    .select(['tool_call_id', 'tool', 'unreadable', 'read_at'])
    .where('chat_id', '=', chatId)
    .where('cleared_at', 'is', null)
    .orderBy('read_at', 'desc')
    .orderBy('tool_call_id', 'asc')
    .execute();
  return rows.map((row) => ({
    toolCallId: row.tool_call_id,
    tool: row.tool,
    unreadable: Number(row.unreadable) === 1,
    readAt: row.read_at,
  }));
}

/**
 * Clears a chat's mark: every read not cleared yet, but a file whose text could not be read
 * (nobody can say what it held: it marks the chat for good). Returns the reads it cleared.
 */
export async function clearChatUntrustedReads(
  db: Db,
  chatId: string,
  now = new Date().toISOString(),
): Promise<{ toolCallId: string; tool: string }[]> {
  const rows = await db
    .updateTable('chat_untrusted_reads')
    .set({ cleared_at: now })
    .where('chat_id', '=', chatId)
    .where('cleared_at', 'is', null)
    .where('unreadable', '=', 0)
    .returning(['tool_call_id', 'tool'])
    .execute();
  return rows.map((row) => ({ toolCallId: row.tool_call_id, tool: row.tool }));
}
