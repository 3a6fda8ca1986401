import type { Policy } from './policy-file';

const rolesByEmailByPolicy = new WeakMap<Policy, ReadonlyMap<string, readonly string[]>>();

/** The policy's `roles` turned around: normalised email → the roles the file lists it under. */
export function rolesByEmailOf(policy: Policy): ReadonlyMap<string, readonly string[]> {
  let rolesByEmail = rolesByEmailByPolicy.get(policy);
  if (rolesByEmail === undefined) {
    const map = new Map<string, string[]>();
    for (const [role, emails] of Object.entries(policy.roles)) {
      for (const email of emails) map.set(email, [...new Set([...(map.get(email) ?? []), role])]);
    }
    rolesByEmail = map;
    rolesByEmailByPolicy.set(policy, rolesByEmail);
  }
  return rolesByEmail;
}
