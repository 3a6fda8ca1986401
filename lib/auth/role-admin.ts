import 'server-only';
import { normalizeEmail } from '@toolgate/engine/client';
import { getConfig } from '@/lib/config';
import {
  findAccountById,
  getDb,
  grantRole,
  listAccountsWithRoles,
  recordAccountEvent,
  revokeRole,
  storedRolesOf,
  storePluginRole,
  writeTransaction,
} from '@/lib/db';
import { publishAccessRevoked } from '@/lib/server/event-bus';
import { computeRoles } from './compute-roles';

/** The most accounts one page of the roles list holds. */
export const maxRoleListLimit = 100;

/** An account as the admins' roles page shows it. */
export type RoleHolder = {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  /** Stored roles, sorted: what an admin can revoke. */
  roles: string[];
  /** Those of `roles` the policy file gave: they go when the file stops listing the email. */
  fileRoles: string[];
  /** Admin through `TOOLGATE_ADMIN_EMAILS` (and verified): not a stored role, so not revocable here. */
  adminByConfig: boolean;
};

/** One page of accounts (never guests) by email, with their roles. */
export async function listRoleHolders(options: {
  emailContains?: string;
  limit: number;
  offset: number;
}): Promise<{ users: RoleHolder[]; nextOffset: number | null }> {
  const adminEmails = getConfig().TOOLGATE_ADMIN_EMAILS;
  const { accounts, hasMore } = await listAccountsWithRoles(await getDb(), {
    ...options,
    emailContains: options.emailContains === undefined ? undefined : normalizeEmail(options.emailContains),
  });
  return {
    users: accounts.map((account) => ({
      id: account.id,
      email: account.email,
      name: account.name,
      emailVerified: account.emailVerified,
      roles: account.storedRoles,
      fileRoles: account.fileRoles,
      adminByConfig: account.emailVerified && adminEmails.has(normalizeEmail(account.email)),
    })),
    nextOffset: hasMore ? options.offset + options.limit : null,
  };
}

/** What a grant or revoke did: `changed` is false when the user already held (or did not hold) it. */
export type RoleChange =
  | { kind: 'not-found' }
  | { kind: 'done'; changed: boolean; userId: string; role: string; roles: string[] };

/**
 * Grants or revokes a stored role of the account `userId` (never a guest's: those answer
 * like an unknown id) on behalf of admin `actorId`, audited as the operators' CLI does it,
 * in the same transaction. `roles` are the roles held now; the admin plugin's copy of the
 * admin role follows. It applies to the user's next request, and a revoke ends their open event streams.
 */
export async function changeRole({
  actorId,
  userId,
  role,
  change,
}: {
  actorId: string;
  userId: string;
  role: string;
  change: 'grant' | 'revoke';
}): Promise<RoleChange> {
  const db = await getDb();
  const result = await writeTransaction(db, async (transaction) => {
    const account = await findAccountById(transaction, userId);
    if (account === undefined || account.isAnonymous) return undefined;
    const changed =
      change === 'grant'
        ? await grantRole(transaction, account.id, role)
        : await revokeRole(transaction, account.id, role);
    if (changed) {
      await recordAccountEvent(transaction, {
        actorId,
        action: change === 'grant' ? 'role-granted' : 'role-revoked',
        targetUserId: account.id,
        detail: { role },
      });
    }
    const roles = computeRoles(
      account,
      await storedRolesOf(transaction, account.id),
      getConfig().TOOLGATE_ADMIN_EMAILS,
    );
    await storePluginRole(transaction, account.id, roles.includes('admin'));
    return { changed, roles };
  });
  if (result === undefined) return { kind: 'not-found' };
  // What the user follows through the role (their inbox, an approval page) ends, on every instance.
  if (change === 'revoke' && result.changed) publishAccessRevoked({ userId });
  return { kind: 'done', userId, role, ...result };
}
