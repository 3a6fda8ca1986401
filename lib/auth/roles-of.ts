import 'server-only';
import { getConfig } from '@/lib/config';
import { getDb, storedRolesOf } from '@/lib/db';
import { computeRoles, type RoleSubject } from './compute-roles';

/**
 * The roles `user` holds now (`computeRoles` over what is stored): empty for guests and
 * unverified emails. Read on every request, so a revoke or a config change applies to the
 * next one.
 */
export async function rolesOf(user: RoleSubject & { id: string }): Promise<string[]> {
  if (user.isAnonymous || !user.emailVerified) return [];
  return computeRoles(user, await storedRolesOf(await getDb(), user.id), getConfig().TOOLGATE_ADMIN_EMAILS);
}
