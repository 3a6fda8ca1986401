import 'server-only';
import { endPendingApprovals } from '@/lib/approvals';
import { deleteChatApprovalRules, deleteChat as deleteChatRow, getChat, getDb } from '@/lib/db';
import { deleteToolEffectsOfScope } from '@/lib/db/tool-effects';
import { getApprovalRegistry, getIdempotencyStore } from '@/lib/server/stores';

/**
 * Deletes a chat the caller owns. Its pending approvals are denied with reason
 * `closed` and its idempotency scope and effect records are cleared, so nothing of the chat can act
 * or replay after it is gone. Returns false for an unknown chat or another owner.
 */
export async function deleteOwnedChat({
  chatId,
  ownerId,
}: {
  chatId: string;
  ownerId?: string;
}): Promise<boolean> {
  const db = await getDb();
  const chat = await getChat(db, chatId);
  if (chat === undefined || (chat.ownerId != null && chat.ownerId !== ownerId)) return false;
  await endPendingApprovals(db, getApprovalRegistry(), chatId, 'closed');
  await getApprovalRegistry().closeSession(chatId);
  await getIdempotencyStore().clearScope(chatId);
  await deleteToolEffectsOfScope(db, chatId);
  // A chat id could come back (the client picks it): its rules must not.
  await deleteChatApprovalRules(db, chatId);
  await deleteChatRow(db, chatId);
  return true;
}
