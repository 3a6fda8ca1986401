import 'server-only';
import { deleteApprovalRule, getChat, getDb, listApprovalRules } from '@/lib/db';
import type { ChatApprovalRule } from './approval-answers';

/**
 * The tools the caller allowed for the rest of this chat, oldest first; undefined for
 * an unknown chat or another owner's (answered like an unknown one).
 */
export async function listChatApprovalRules({
  chatId,
  ownerId,
}: {
  chatId: string;
  ownerId: string;
}): Promise<ChatApprovalRule[] | undefined> {
  const db = await getDb();
  const chat = await getChat(db, chatId);
  if (chat === undefined || (chat.ownerId != null && chat.ownerId !== ownerId)) return undefined;
  const rules = await listApprovalRules(db, chatId, ownerId);
  return rules.map(({ toolName, createdAt }) => ({ toolName, createdAt }));
}

/** Revokes the caller's rule for `toolName` in this chat: its next call shows a card again. */
export async function revokeChatApprovalRule({
  chatId,
  ownerId,
  toolName,
}: {
  chatId: string;
  ownerId: string;
  toolName: string;
}): Promise<boolean> {
  return deleteApprovalRule(await getDb(), { chatId, ownerId, toolName });
}
