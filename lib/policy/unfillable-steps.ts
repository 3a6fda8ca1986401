import type { Policy } from '@toolgate/engine/policy';
import { type Db, engineOf } from '@/lib/db/engine';

/** How many verified accounts hold each role (a role nobody holds is absent). */
export type RoleHolders = ReadonlyMap<string, number>;

/**
 * Verified, unbanned accounts (never guests) per role, read now. `excluding`: leave out this
 * user (the requester of a call, who never fills a role step of their own call).
 */
export async function countVerifiedRoleHolders(db: Db, { excluding }: { excluding?: string } = {}) {
  const yes = engineOf(db) === 'postgres' ? true : 1;
  const no = engineOf(db) === 'postgres' ? false : 0;
  const rows = await db
    .selectFrom('user_role')
    .innerJoin('user', 'user.id', 'user_role.user_id')
    .select((eb) => [
      'user_role.role as role',
      eb.fn.count<number | string>('user.id').distinct().as('holders'),
    ])
    .where('user.emailVerified', '=', yes)
    .where((eb) => eb.or([eb('user.isAnonymous', 'is', null), eb('user.isAnonymous', '=', no)]))
    .where((eb) => eb.or([eb('user.banned', 'is', null), eb('user.banned', '=', no)]))
    .$if(excluding !== undefined, (query) => query.where('user.id', '!=', excluding as string))
    .groupBy('user_role.role')
    .execute();
  return new Map(rows.map((row): [string, number] => [row.role, Number(row.holders)])) as RoleHolders;
}

/** How many role steps of each role a list of steps asks for. */
function stepsPerRole(steps: readonly { kind: string; role?: string }[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const step of steps) {
    if (step.kind === 'role' && step.role !== undefined)
      counts.set(step.role, (counts.get(step.role) ?? 0) + 1);
  }
  return counts;
}

/**
 * The roles a call's steps ask for that too few people hold to ever fill them (one person fills
 * at most one step): each with how many steps ask for it and how many could fill them.
 */
export function rolesShortOfHolders(
  steps: readonly { kind: string; role?: string }[],
  holders: RoleHolders,
): { role: string; needed: number; holders: number }[] {
  return [...stepsPerRole(steps)]
    .map(([role, needed]) => ({ role, needed, holders: holders.get(role) ?? 0 }))
    .filter((short) => short.holders < short.needed);
}

/**
 * Steps of a policy that can never be filled with the accounts there are now: a role step
 * whose role no verified account holds, M steps of one role with fewer than M verified
 * holders, an escalation to a role too few hold. One sentence per problem, naming the rule.
 */
export function unfillableSteps(policy: Policy, holders: RoleHolders): string[] {
  const warnings: string[] = [];
  policy.rules.forEach((rule, index) => {
    const steps = (rule.approvers ?? []).map((step) =>
      step === 'requester' ? { kind: 'requester' } : { kind: 'role', role: step.role },
    );
    const counts = stepsPerRole(steps);
    for (const { role, needed, holders: held } of rolesShortOfHolders(steps, holders)) {
      warnings.push(
        held === 0
          ? `rules[${index}] (${rule.tool}): no verified account holds the role "${role}", so its step can never be filled`
          : `rules[${index}] (${rule.tool}): asks ${needed} different holders of "${role}" (${needed} of ${needed}), but only ${held} verified account${held === 1 ? '' : 's'} hold${held === 1 ? 's' : ''} it`,
      );
    }
    const to = rule.escalate?.to.role;
    if (to !== undefined) {
      const needed = [...counts.values()].reduce((sum, count) => sum + count, 0);
      const held = holders.get(to) ?? 0;
      if (held < Math.max(1, needed))
        warnings.push(
          held === 0
            ? `rules[${index}].escalate.to.role: no verified account holds the role "${to}", so the escalation can never be filled`
            : `rules[${index}].escalate.to.role: escalates ${needed} steps to "${to}", but only ${held} verified account${held === 1 ? '' : 's'} hold${held === 1 ? 's' : ''} it`,
        );
    }
  });
  return warnings;
}
