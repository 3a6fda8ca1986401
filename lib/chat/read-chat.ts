import 'server-only';
import type { UIMessage } from 'ai';
import { isToolPart, listChatApprovals, settleChatApprovals } from '@/lib/approvals';
import { getChat, getChatMessages, getChatStream, getDb, listChats } from '@/lib/db';
import { continueParkedTurn } from './continue-parked-turn';
import { runningTurns } from './turn-streams';

/** A saved chat as `GET /api/chats/:id` answers it. */
export type SavedChat = {
  id: string;
  title: string;
  worker: string | null;
  messages: UIMessage[];
  /**
   * The turn running now, if any: its stream (`GET /api/chat/:id/stream`) rebuilds
   * message `messageId` from its first `baseParts` parts (from nothing when -1), so a
   * page that resumes drops the rest first.
   */
  activeStream: { messageId: string; baseParts: number } | null;
};

/**
 * A saved chat with its messages, if the caller owns it (or it has no owner). What
 * nobody is left to settle is settled first (a card past its deadline reads Expired,
 * not "waiting", after a restart); a decision nobody took on is continued.
 */
export async function readOwnedChat({
  chatId,
  ownerId,
}: {
  chatId: string;
  ownerId?: string;
}): Promise<SavedChat | undefined> {
  const db = await getDb();
  const chat = await getChat(db, chatId);
  if (chat === undefined || (chat.ownerId != null && chat.ownerId !== ownerId)) return undefined;
  const orphans = await settleChatApprovals(db, chatId, { isRunningHere: runningTurns().has(chatId) });
  for (const orphan of orphans) await continueParkedTurn(db, orphan.id, chatId);
  const stream = await getChatStream(db, chatId);
  // The row's deadline wins over the saved part's: "+60 s" moves only the row.
  const pending = await listChatApprovals(db, chatId, ['pending']);
  const pendingById = new Map(pending.map((row) => [row.id, row]));
  return {
    id: chat.id,
    title: chat.title,
    worker: chat.worker,
    messages: withRemainingTime(await getChatMessages(db, chatId), Date.now(), pendingById),
    activeStream: stream === undefined ? null : { messageId: stream.messageId, baseParts: stream.baseParts },
  };
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

/**
 * Adds to each waiting card the time it has left by the server's clock, so the page
 * counts down from when it received this, whatever its own clock says, and how many
 * times it was given more time.
 */
function withRemainingTime(
  messages: UIMessage[],
  now: number,
  pendingById: ReadonlyMap<string, { expiresAt: number; extensions: number }>,
): UIMessage[] {
  return messages.map((message) => ({
    ...message,
    parts: message.parts.map((part) => {
      if (!isToolPart(part) || part.state !== 'approval-requested') return part;
      const descriptor = part.approval.descriptor as { expiresAt?: unknown } | undefined;
      if (typeof descriptor?.expiresAt !== 'number') return part;
      const row = pendingById.get(part.approval.id);
      const expiresAt = row?.expiresAt ?? descriptor.expiresAt;
      const remainingMs = Math.max(0, expiresAt - now);
      const extensions = row?.extensions ?? 0;
      return {
        ...part,
        approval: { ...part.approval, descriptor: { ...descriptor, expiresAt, remainingMs, extensions } },
      };
    }),
  }));
}
