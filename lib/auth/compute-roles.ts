import { normalizeEmail } from '@toolgate/engine/client';

/** What privilege is computed from: never a role copied at sign-up. */
export type RoleSubject = { email: string; emailVerified: boolean; isAnonymous: boolean };

/**
 * The roles a user holds: none for a guest or an unverified email; otherwise `storedRoles`,
 * plus `admin` when the email is in `adminEmails` (compared after `normalizeEmail`).
 */
export function computeRoles(
  user: RoleSubject,
  storedRoles: readonly string[],
  adminEmails: ReadonlySet<string>,
): string[] {
  if (user.isAnonymous || !user.emailVerified) return [];
  const roles = new Set(storedRoles);
  if (adminEmails.has(normalizeEmail(user.email))) roles.add('admin');
  return [...roles].sort();
}
