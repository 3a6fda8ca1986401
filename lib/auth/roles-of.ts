import 'server-only';
import { getConfig } from '@/lib/config';
import { getDb, storedRolesOf } from '@/lib/db';
import { getPolicy } from '@/lib/policy';
import { bootstrapRolesOf } from './bootstrap-roles';
import { computeRoles, type RoleSubject } from './compute-roles';

/**
 * The roles `user` holds now (`computeRoles` over what is stored): empty for guests and
 * unverified emails. Read on every request, so a revoke or a config change applies to the
 * next one. A verified email the policy file lists gets those roles stored first, once
 * (however it became verified: the mailed link, the operators' CLI, before this start).
 */
export async function rolesOf(user: RoleSubject & { id: string }): Promise<string[]> {
  if (user.isAnonymous || !user.emailVerified) return [];
  const db = await getDb();
  await bootstrapRolesOf(db, getPolicy(), user);
  return computeRoles(user, await storedRolesOf(db, user.id), getConfig().TOOLGATE_ADMIN_EMAILS);
}
