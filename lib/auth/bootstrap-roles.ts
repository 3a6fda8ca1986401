import 'server-only';
import { normalizeEmail } from '@toolgate/engine/client';
import { rolesByEmailOf } from '@toolgate/engine/policy';
import { applyRoleBootstrap, type Db, withdrawUnlistedFileRoles } from '@/lib/db';
import type { Policy } from '@/lib/policy';
import { publishAccessRevoked } from '@/lib/server/event-bus';
import type { RoleSubject } from './compute-roles';

// Pairs this process saw given or already used, so a listed user's requests stop asking the database.
const settledByDb = new WeakMap<Db, Set<string>>();

async function settle(db: Db, email: string, roles: readonly string[]): Promise<void> {
  let settled = settledByDb.get(db);
  if (settled === undefined) {
    settled = new Set();
    settledByDb.set(db, settled);
  }
  for (const role of roles) {
    const pair = `${email}\u0000${role}`;
    if (settled.has(pair)) continue;
    if ((await applyRoleBootstrap(db, email, role)) !== 'not-eligible') settled.add(pair);
  }
}

/**
 * Gives `user` the roles the policy file lists their email under, once per (email, role)
 * (see `applyRoleBootstrap`); nothing for a guest or an unverified email. Cheap for
 * everyone else: no database call unless the email is listed and not yet settled here.
 */
export async function bootstrapRolesOf(db: Db, policy: Policy | undefined, user: RoleSubject): Promise<void> {
  if (policy === undefined || user.isAnonymous || !user.emailVerified) return;
  const email = normalizeEmail(user.email);
  const roles = rolesByEmailOf(policy).get(email);
  if (roles !== undefined) await settle(db, email, roles);
}

/**
 * At start-up (and whenever the file is read again): gives every listed email that already
 * has a verified account its roles, and takes the file's roles back from emails it no longer
 * lists (without a policy file: every role a file gave), ending their open event streams as
 * an admin's revoke does. Roles admins granted stay.
 */
export async function bootstrapListedUsers(db: Db, policy: Policy | undefined): Promise<void> {
  const rolesByEmail = policy === undefined ? new Map<string, string[]>() : rolesByEmailOf(policy);
  const withdrawn = await withdrawUnlistedFileRoles(
    db,
    (email, role) => rolesByEmail.get(normalizeEmail(email))?.includes(role) ?? false,
  );
  if (withdrawn.length > 0)
    console.info(`[toolgate] took back ${withdrawn.length} role(s) the policy file no longer gives`);
  // As an admin's revoke: their open event streams end now (on every instance), not at their life's end.
  for (const userId of new Set(withdrawn)) publishAccessRevoked({ userId });
  settledByDb.delete(db);
  for (const [email, roles] of rolesByEmail) await settle(db, email, roles);
}
