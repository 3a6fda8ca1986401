import type { Policy } from '@toolgate/engine/policy';
import { ConfigError } from '@/lib/config';
import { openReadOnlyDatabase } from '@/lib/db/open-read-only-database';
import { formatReplayReport, replayPolicy } from '@/lib/policy/replay-policy';
import { readSavedWriteCalls } from '@/lib/policy/saved-write-calls';
import { mostStepsOf, rolesOf, unfillableSteps, verifiedRoleHolders } from '@/lib/policy/unfillable-steps';
import { checkStartupConfiguration, type StartupConfiguration } from './check-startup-configuration';

/** How `npm run policy` is called. */
export const policyUsage = `Usage: npm run policy -- check <policy.json>
       npm run policy -- replay <policy.json> [--since <ISO date>] [--json]`;

/** Where the command writes, and the environment it reads (the server's variables). */
export type PolicyCommandIo = {
  environment: Record<string, string | undefined>;
  out: (text: string) => void;
  error: (text: string) => void;
};

/**
 * `check <file>` validates a candidate policy as the server would (exit 0, or 1 listing every
 * problem); `replay <file>` judges the write calls saved in chats (since `--since`) under it and
 * prints per rule where they would go beside where they went (`--json` for CI). Replay opens the
 * database read-only and changes nothing. Exit 2: the command itself was wrong.
 */
export async function runPolicyCommand(argv: readonly string[], io: PolicyCommandIo): Promise<number> {
  const [command, file, ...rest] = argv;
  if ((command !== 'check' && command !== 'replay') || file === undefined || file.startsWith('--')) {
    io.error(policyUsage);
    return 2;
  }
  let since: Date | undefined;
  let json = false;
  for (let index = 0; index < rest.length; index += 1) {
    const flag = rest[index];
    if (command === 'replay' && flag === '--json') json = true;
    else if (command === 'replay' && flag === '--since') {
      const value = rest[index + 1];
      index += 1;
      since = value === undefined ? undefined : new Date(value);
      if (since === undefined || Number.isNaN(since.getTime())) {
        io.error(
          `--since needs an ISO date such as 2026-11-01 or 2026-11-01T08:00:00Z; got ${value ?? 'nothing'}`,
        );
        return 2;
      }
    } else {
      io.error(`unknown argument ${flag}\n${policyUsage}`);
      return 2;
    }
  }
  let startup: StartupConfiguration;
  try {
    // The configuration with `file` as the policy, checked exactly as the server checks it at start-up.
    startup = checkStartupConfiguration({ ...io.environment, TOOLGATE_POLICY: file });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.error(error.message);
    return 1;
  }
  const { config, policy, confirmTools } = startup;
  if (policy === undefined) throw new Error('the policy file was not loaded');
  if (command === 'check') {
    io.out(`${file}: valid (${policy.rules.length} rules, ${Object.keys(policy.roles).length} roles)`);
    // Valid, but a step nobody can fill would refuse its calls: said from the accounts there are now.
    for (const warning of await unfillableStepsOn(config, policy, io)) io.error(`warning: ${warning}`);
    return 0;
  }
  const db = openReadOnlyDatabase({ url: config.DATABASE_URL, path: config.DATABASE_PATH });
  try {
    const startedAt = performance.now();
    const calls = await readSavedWriteCalls(db, { since });
    const report = replayPolicy(calls, { policy, confirmTools });
    const tookMs = Math.round(performance.now() - startedAt);
    if (json) io.out(JSON.stringify({ ...report, since: since?.toISOString() ?? null, tookMs }));
    else io.out(`${formatReplayReport(report)}\n\n(${tookMs} ms)`);
    return 0;
  } finally {
    await db.destroy();
  }
}

/**
 * The steps of `policy` nobody can fill with the verified accounts in the app's database
 * (read-only); when the database cannot be read, one warning saying so.
 */
async function unfillableStepsOn(
  config: StartupConfiguration['config'],
  policy: Policy,
  io: PolicyCommandIo,
): Promise<string[]> {
  let db: ReturnType<typeof openReadOnlyDatabase> | undefined;
  try {
    db = openReadOnlyDatabase({ url: config.DATABASE_URL, path: config.DATABASE_PATH });
    return unfillableSteps(
      policy,
      await verifiedRoleHolders(db, { roles: rolesOf(policy), limit: mostStepsOf(policy) }),
    );
  } catch (error) {
    io.error(
      `warning: could not read who holds the roles (${(error as Error).message}): steps were not checked`,
    );
    return [];
  } finally {
    await db?.destroy().catch(() => undefined);
  }
}
