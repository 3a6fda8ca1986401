import type { Policy } from '@toolgate/engine/policy';
import { type Db, engineOf } from '@/lib/db/engine';

/** Verified holders (user ids) of each role, at most as many as a check needs (a role nobody holds is absent). */
export type RoleHolders = ReadonlyMap<string, readonly string[]>;

/**
 * Verified, unbanned accounts (never guests) holding each of `roles`, read now: at most `limit`
 * per role, which is all a check of `limit` steps needs (with that many, a role's steps always
 * find someone free). `excluding`: leave out this user (the requester of a call, who never
 * fills a role step of their own call).
 */
export async function verifiedRoleHolders(
  db: Db,
  { roles, limit, excluding }: { roles: Iterable<string>; limit: number; excluding?: string },
): Promise<RoleHolders> {
  const yes = engineOf(db) === 'postgres' ? true : 1;
  const no = engineOf(db) === 'postgres' ? false : 0;
  const holders = await Promise.all(
    [...new Set(roles)].map(async (role): Promise<[string, string[]]> => {
      const rows = await db
        .selectFrom('user_role')
        .innerJoin('user', 'user.id', 'user_role.user_id')
        .select('user.id as id')
        .where('user_role.role', '=', role)
        .where('user.emailVerified', '=', yes)
        .where((eb) => eb.or([eb('user.isAnonymous', 'is', null), eb('user.isAnonymous', '=', no)]))
        .where((eb) => eb.or([eb('user.banned', 'is', null), eb('user.banned', '=', no)]))
        .$if(excluding !== undefined, (query) => query.where('user.id', '!=', excluding as string))
        .orderBy('user.id')
        .limit(Math.max(1, limit))
        .execute();
      return [role, rows.map((row) => row.id)];
    }),
  );
  return new Map(holders.filter(([, ids]) => ids.length > 0));
}

/** The roles a list of steps asks for, one entry per role step. */
const roleStepsOf = (steps: readonly { kind: string; role?: string }[]): string[] =>
  steps.flatMap((step) => (step.kind === 'role' && step.role !== undefined ? [step.role] : []));

/** Steps that need more different people than hold any of their roles. */
export type PeopleShortage = { roles: string[]; needed: number; holders: number };

/**
 * Whether a call's role steps can each have their own person: one person fills at most one
 * step of a call, so a holder of two roles counts once. Each group of steps that cannot is
 * returned with its roles, how many different people it needs and how many hold any of its
 * roles ([] when every step can be filled). A matching of steps to holders (augmenting paths):
 * a step the search cannot place, with the steps whose people it tried to move, is such a group.
 */
export function rolesShortOfHolders(
  steps: readonly { kind: string; role?: string }[],
  holders: RoleHolders,
): PeopleShortage[] {
  const roleSteps = roleStepsOf(steps);
  const stepOfPerson = new Map<string, number>();
  const place = (step: number, tried: Set<string>): boolean => {
    for (const person of holders.get(roleSteps[step] ?? '') ?? []) {
      if (tried.has(person)) continue;
      tried.add(person);
      const other = stepOfPerson.get(person);
      if (other === undefined || place(other, tried)) {
        stepOfPerson.set(person, step);
        return true;
      }
    }
    return false;
  };
  // Groups of the same roles are one group: they need the same people.
  const groups = new Map<string, { roles: string[]; steps: Set<number>; people: Set<string> }>();
  roleSteps.forEach((_, step) => {
    const tried = new Set<string>();
    if (place(step, tried)) return;
    const members = [step, ...[...tried].flatMap((person) => stepOfPerson.get(person) ?? [])];
    const roles = [...new Set(members.map((index) => roleSteps[index] ?? ''))].sort();
    const group = groups.get(roles.join('\n')) ?? { roles, steps: new Set(), people: new Set() };
    for (const member of members) group.steps.add(member);
    for (const person of tried) group.people.add(person);
    groups.set(roles.join('\n'), group);
  });
  return [...groups.values()].map(({ roles, steps, people }) => ({
    roles,
    needed: steps.size,
    holders: people.size,
  }));
}

/** The most role steps any rule of `policy` asks for (at least one): how many holders per role a check reads. */
export function mostStepsOf(policy: Policy): number {
  return Math.max(1, ...policy.rules.map((rule) => roleStepsOf(stepsOfRule(rule)).length));
}

/** Every role `policy` names, in a step or as an escalation's target. */
export function rolesOf(policy: Policy): string[] {
  return policy.rules.flatMap((rule) => [
    ...roleStepsOf(stepsOfRule(rule)),
    ...(rule.escalate === undefined ? [] : [rule.escalate.to.role]),
  ]);
}

const stepsOfRule = (rule: Policy['rules'][number]) =>
  (rule.approvers ?? []).map((step) =>
    step === 'requester' ? { kind: 'requester' } : { kind: 'role', role: step.role },
  );

const accounts = (count: number) => `${count} verified account${count === 1 ? '' : 's'}`;

/**
 * Steps of a policy that can never be filled with the accounts there are now: a role step
 * whose role no verified account holds, M steps of one role with fewer than M verified
 * holders, steps of several roles that fewer different people hold between them (one person
 * fills one step), an escalation to a role too few hold. One sentence per problem, naming the rule.
 */
export function unfillableSteps(policy: Policy, holders: RoleHolders): string[] {
  const warnings: string[] = [];
  policy.rules.forEach((rule, index) => {
    const steps = stepsOfRule(rule);
    for (const { roles, needed, holders: held } of rolesShortOfHolders(steps, holders)) {
      const [role] = roles;
      warnings.push(
        roles.length > 1
          ? `rules[${index}] (${rule.tool}): its steps for ${roles.map((name) => `"${name}"`).join(' and ')} need ${needed} different people (one person fills one step), but only ${accounts(held)} hold${held === 1 ? 's' : ''} any of those roles`
          : held === 0
            ? `rules[${index}] (${rule.tool}): no verified account holds the role "${role}", so its step can never be filled`
            : `rules[${index}] (${rule.tool}): asks ${needed} different holders of "${role}" (${needed} of ${needed}), but only ${accounts(held)} hold${held === 1 ? 's' : ''} it`,
      );
    }
    const to = rule.escalate?.to.role;
    if (to !== undefined) {
      const needed = roleStepsOf(steps).length;
      const held = holders.get(to)?.length ?? 0;
      if (held < Math.max(1, needed))
        warnings.push(
          held === 0
            ? `rules[${index}].escalate.to.role: no verified account holds the role "${to}", so the escalation can never be filled`
            : `rules[${index}].escalate.to.role: escalates ${needed} steps to "${to}", but only ${accounts(held)} hold${held === 1 ? 's' : ''} it`,
        );
    }
  });
  return warnings;
}
