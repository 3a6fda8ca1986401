import 'server-only';
import type { UIMessage } from 'ai';
import type { Db } from '@/lib/db/engine';
import { isToolPart } from '../life-cycle/approval-parts';
import { listChatApprovals } from '../life-cycle/approval-rows';
import { settleChatApprovals } from '../life-cycle/settle-approvals';

/** What reading a chat asks of its approvals. */
export type ChatApprovalsRead = {
  /** Approved calls no turn took on: the caller continues each turn (this folder never runs one). */
  parked: { approvalId: string; chatId: string }[];
  /**
   * `messages` with each waiting card's time left by the server's clock and how many times it
   * was given more time. Read once the parked calls are continued: the row's deadline wins
   * over the saved part's ("+60 s" moves only the row).
   */
  withRemainingTime(messages: UIMessage[]): Promise<UIMessage[]>;
};

/**
 * A chat's approvals, as its reader needs them. What nobody is left to settle is settled
 * first (a card past its deadline reads Expired, not "waiting", after a restart); a decision
 * nobody took on comes back in `parked`.
 */
export async function readChatApprovals(
  db: Db,
  chatId: string,
  { isRunningHere }: { isRunningHere: boolean },
): Promise<ChatApprovalsRead> {
  const orphans = await settleChatApprovals(db, chatId, { isRunningHere });
  return {
    parked: orphans.map((row) => ({ approvalId: row.id, chatId: row.chatId })),
    withRemainingTime: async (messages) => {
      const pending = await listChatApprovals(db, chatId, ['pending']);
      const pendingById = new Map(pending.map((row) => [row.id, row]));
      return withRemainingTime(messages, Date.now(), pendingById);
    },
  };
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
