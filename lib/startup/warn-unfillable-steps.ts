import type { Db } from '@/lib/db/engine';
import type { Policy } from '@/lib/policy';
import { mostStepsOf, rolesOf, unfillableSteps, verifiedRoleHolders } from '@/lib/policy/unfillable-steps';

/**
 * Logs a warning for each step of `policy` nobody can fill with the accounts there are now
 * (see `unfillableSteps`): at start-up and whenever the file's new version is picked up. Such
 * a step refuses its calls at once (`no_approver`) rather than letting them wait to expire.
 * Never throws: a database that cannot be read is logged and the policy stays in force.
 */
export async function warnOfUnfillableSteps(db: Db, policy: Policy | undefined): Promise<string[]> {
  if (policy === undefined) return [];
  try {
    const holders = await verifiedRoleHolders(db, { roles: rolesOf(policy), limit: mostStepsOf(policy) });
    const warnings = unfillableSteps(policy, holders);
    for (const warning of warnings)
      console.warn(`[toolgate] policy: ${warning}; such a call is refused at once (no_approver)`);
    return warnings;
  } catch (error) {
    console.error('[toolgate] policy: could not check who holds its roles:', error);
    return [];
  }
}
