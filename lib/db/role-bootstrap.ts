import type { Db } from './engine';
import { findAccountByEmail, grantRole, recordAccountEvent } from './user-roles';
import { writeTransaction } from './write-transaction';

/** What `applyRoleBootstrap` did: gave the role, found the pair already used, or found no verified account. */
export type RoleBootstrapOutcome = 'granted' | 'settled' | 'not-eligible';

/**
 * Gives `role` to the account whose email is `email` (normalised), once per (email, role)
 * ever: only to a verified, non-guest account, which is checked in the same transaction
 * that records the pair used. Until such an account exists nothing is recorded, so an
 * unverified sign-up with the address neither gets the role nor uses it up; once recorded,
 * a later revoke stands. Audited like an operator's grant.
 */
export async function applyRoleBootstrap(db: Db, email: string, role: string): Promise<RoleBootstrapOutcome> {
  return writeTransaction(db, async (transaction) => {
    const account = await findAccountByEmail(transaction, email);
    if (account === undefined || !account.emailVerified || account.isAnonymous) return 'not-eligible';
    const claimed = await transaction
      .insertInto('role_bootstrap')
      .values({ email, role, user_id: account.id, applied_at: new Date().toISOString() })
      .onConflict((conflict) => conflict.columns(['email', 'role']).doNothing())
      .executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) return 'settled';
    if (!(await grantRole(transaction, account.id, role))) return 'settled';
    await transaction
      .updateTable('user_role')
      .set({ source: 'policy' })
      .where('user_id', '=', account.id)
      .where('role', '=', role)
      .execute();
    await recordAccountEvent(transaction, {
      actorId: null,
      action: 'role-granted',
      targetUserId: account.id,
      detail: { role, source: 'TOOLGATE_POLICY' },
    });
    return 'granted';
  });
}

/**
 * Takes back the roles the policy file gave whose (email, role) `listed` no longer holds:
 * the stored role and its bootstrap record go (so listing the email again gives it again),
 * audited as a revoke by the file. Roles admins granted are never touched. Returns the user id
 * of each role that went (a user once per role).
 */
export async function withdrawUnlistedFileRoles(
  db: Db,
  listed: (email: string, role: string) => boolean,
): Promise<string[]> {
  const given = await db
    .selectFrom('user_role')
    .innerJoin('user', 'user.id', 'user_role.user_id')
    .select(['user_role.user_id as userId', 'user_role.role as role', 'user.email as email'])
    .where('user_role.source', '=', 'policy')
    .execute();
  const withdrawn: string[] = [];
  for (const { userId, role, email } of given) {
    if (listed(email, role)) continue;
    await writeTransaction(db, async (transaction) => {
      const removed = await transaction
        .deleteFrom('user_role')
        .where('user_id', '=', userId)
        .where('role', '=', role)
        .where('source', '=', 'policy')
        .executeTakeFirst();
      if (Number(removed.numDeletedRows) === 0) return;
      await transaction
        .deleteFrom('role_bootstrap')
        .where('user_id', '=', userId)
        .where('role', '=', role)
        .execute();
      await recordAccountEvent(transaction, {
        actorId: null,
        action: 'role-revoked',
        targetUserId: userId,
        detail: { role, source: 'TOOLGATE_POLICY' },
      });
      withdrawn.push(userId);
    });
  }
  return withdrawn;
}
