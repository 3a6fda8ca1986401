import type { Db } from './engine';

/** A tool one user allowed for the rest of one chat. */
export type ApprovalRule = { chatId: string; ownerId: string; toolName: string; createdAt: string };

/** Allows `toolName` for the rest of this chat, for this owner only; allowing it twice keeps one rule. */
export async function addApprovalRule(
  db: Db,
  rule: { chatId: string; ownerId: string; toolName: string },
): Promise<void> {
  await db
    .insertInto('approval_rules')
    .values({
      chat_id: rule.chatId,
      owner_id: rule.ownerId,
      tool_name: rule.toolName,
      created_at: new Date().toISOString(),
    })
    .onConflict((conflict) => conflict.columns(['chat_id', 'owner_id', 'tool_name']).doNothing())
    .execute();
}

/** Whether this owner allowed `toolName` for this chat. */
export async function hasApprovalRule(
  db: Db,
  { chatId, ownerId, toolName }: { chatId: string; ownerId: string; toolName: string },
): Promise<boolean> {
  const row = await db
    .selectFrom('approval_rules')
    .select('tool_name')
    .where('chat_id', '=', chatId)
    .where('owner_id', '=', ownerId)
    .where('tool_name', '=', toolName)
    .executeTakeFirst();
  return row !== undefined;
}

/** This owner's rules in this chat, oldest first. */
export async function listApprovalRules(db: Db, chatId: string, ownerId: string): Promise<ApprovalRule[]> {
  const rows = await db
    .selectFrom('approval_rules')
    .selectAll()
    .where('chat_id', '=', chatId)
    .where('owner_id', '=', ownerId)
    .orderBy('created_at')
    .orderBy('tool_name')
    .execute();
  return rows.map((row) => ({
    chatId: row.chat_id,
    ownerId: row.owner_id,
    toolName: row.tool_name,
    createdAt: row.created_at,
  }));
}

/** Revokes one rule; returns whether there was one. */
export async function deleteApprovalRule(
  db: Db,
  { chatId, ownerId, toolName }: { chatId: string; ownerId: string; toolName: string },
): Promise<boolean> {
  const result = await db
    .deleteFrom('approval_rules')
    .where('chat_id', '=', chatId)
    .where('owner_id', '=', ownerId)
    .where('tool_name', '=', toolName)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Drops every rule of a chat (the chat was deleted). */
export async function deleteChatApprovalRules(db: Db, chatId: string): Promise<void> {
  await db.deleteFrom('approval_rules').where('chat_id', '=', chatId).execute();
}
