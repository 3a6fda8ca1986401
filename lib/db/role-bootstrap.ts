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
    await recordAccountEvent(transaction, {
      actorId: null,
      action: 'role-granted',
      targetUserId: account.id,
      detail: { role, source: 'TOOLGATE_POLICY' },
    });
    return 'granted';
  });
}
