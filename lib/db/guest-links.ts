import type { Db } from './engine';
import { recordAccountEvent } from './user-roles';
import { writeTransaction } from './write-transaction';

/**
 * Links a guest who signed up or signed in to their account, in one transaction: the link
 * (one per guest, so of two sign-ins racing from one guest session only the first takes its
 * rows), an `account_audit` row saying so, and the guest's chats, tickets, to-dos, refunds,
 * effect records, chat rules and approvals given to the account.
 *
 * Audit rows are never rewritten (the hash chain covers their user id): they keep the
 * guest's id and count as the account's through the link (`listAuditRows`).
 * An approval the account decided a step of stays the guest's, so no record shows one
 * person asking and deciding. Returns whether this call made the link.
 */
export async function linkGuestToAccount(db: Db, guestId: string, userId: string): Promise<boolean> {
  if (guestId === userId) return false;
  return writeTransaction(db, async (transaction) => {
    const inserted = await transaction
      .insertInto('guest_link')
      .values({ guest_id: guestId, user_id: userId, linked_at: new Date().toISOString() })
      .onConflict((conflict) => conflict.column('guest_id').doNothing())
      .returning('guest_id')
      .executeTakeFirst();
    if (inserted === undefined) return false;
    await recordAccountEvent(transaction, {
      actorId: guestId,
      action: 'guest-linked',
      targetUserId: userId,
    });
    await transaction
      .updateTable('chats')
      .set({ owner_id: userId })
      .where('owner_id', '=', guestId)
      .execute();
    await transaction
      .updateTable('approval_rules')
      .set({ owner_id: userId })
      .where('owner_id', '=', guestId)
      .execute();
    await transaction
      .updateTable('approvals')
      .set({ owner_id: userId })
      .where('owner_id', '=', guestId)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('approval_steps')
              .select('approval_steps.approval_id')
              .whereRef('approval_steps.approval_id', '=', 'approvals.id')
              .where('approval_steps.decided_by', '=', userId),
          ),
        ),
      )
      .execute();
    for (const table of ['tickets', 'todos', 'refunds', 'tool_effects'] as const) {
      await transaction.updateTable(table).set({ user_id: userId }).where('user_id', '=', guestId).execute();
    }
    return true;
  });
}
