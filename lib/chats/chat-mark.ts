import 'server-only';
import type { ChatMark } from '@toolgate/engine/provenance';
import { hashToolArguments } from '@toolgate/engine/shells';
import {
  type ChatUntrustedRead,
  chatUntrustedReadIds,
  clearChatUntrustedReads,
  type Db,
  getChat,
  getDb,
  insertAuditRow,
  markingChatUntrustedReads,
  recordChatUntrustedReads,
} from '@/lib/db';

/**
 * A chat's mark, kept in the database: the untrusted reads it holds until its person clears
 * them. A turn records each read as it happens; the reads its saved history holds are kept
 * too (a read whose record was lost still marks the chat), but a read once cleared stays cleared.
 */
export function chatMarkOf(db: Db, chatId: string): ChatMark {
  return {
    record: (read) => recordChatUntrustedReads(db, chatId, [read]),
    reads: async (found) => {
      const kept = await chatUntrustedReadIds(db, chatId);
      const missing = found.filter((read) => !kept.has(read.toolCallId));
      if (missing.length > 0) await recordChatUntrustedReads(db, chatId, missing);
      return (await markingChatUntrustedReads(db, chatId)).map(({ tool, toolCallId, unreadable }) => ({
        tool,
        toolCallId,
        ...(unreadable && { unreadable: true as const }),
      }));
    },
  };
}

/** The reads that mark a chat the caller owns, newest first; undefined for an unknown chat or another owner. */
export async function listChatMark({
  chatId,
  ownerId,
}: {
  chatId: string;
  ownerId: string;
}): Promise<ChatUntrustedRead[] | undefined> {
  const db = await getDb();
  const chat = await getChat(db, chatId);
  if (chat === undefined || (chat.ownerId != null && chat.ownerId !== ownerId)) return undefined;
  return markingChatUntrustedReads(db, chatId);
}

/**
 * The person says they have checked what their chat read: its reads stop marking it (a file
 * whose text could not be read stays), audited as `taint_cleared` naming the reads (tools and
 * call ids, never content). Undefined for an unknown chat or another owner.
 */
export async function clearChatMark({
  chatId,
  ownerId,
}: {
  chatId: string;
  ownerId: string;
}): Promise<{ cleared: number; remaining: ChatUntrustedRead[] } | undefined> {
  const db = await getDb();
  const chat = await getChat(db, chatId);
  if (chat === undefined || (chat.ownerId != null && chat.ownerId !== ownerId)) return undefined;
  const now = new Date().toISOString();
  const cleared = await clearChatUntrustedReads(db, chatId, now);
  if (cleared.length > 0) {
    await insertAuditRow(db, {
      userId: ownerId,
      chatId,
      worker: chat.worker ?? '',
      toolName: '',
      toolCallId: '',
      argsHash: hashToolArguments(null),
      outcome: 'taint_cleared',
      detail: { clearedReads: cleared.map(({ tool, toolCallId }) => ({ tool, toolCallId })) },
      durationMs: 0,
      createdAt: now,
    });
  }
  return { cleared: cleared.length, remaining: await markingChatUntrustedReads(db, chatId) };
}
