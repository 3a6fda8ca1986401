/**
 * `npm run users -- <command>` — the operators' account commands, on the app's database
 * (`DATABASE_URL`, else `DATABASE_PATH`; `.env.local` and `.env` in this folder are read
 * first, as Next.js reads them):
 *
 *   verify <email>         mark the email verified (its admin and roles then count)
 *   grant <email> <role>   store a role for the user (`supervisor`, `admin`…)
 *   revoke <email> <role>  remove a stored role
 *   roles <email>          print the roles the user holds now
 *   remove-unverified <email>
 *                          delete an account whose email nobody verified (someone else's
 *                          sign-up holding the address), so its owner can sign up
 *
 * Exits 0 on success, 1 with a message otherwise (unknown email, bad role name).
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { normalizeEmail } from '@toolgate/engine/client';
import { rolesByEmailOf } from '@toolgate/engine/policy';
import { createClient } from 'redis';
import { computeRoles } from '../lib/auth/compute-roles';
import { type AppConfig, ConfigError } from '../lib/config';
import type { Db } from '../lib/db/engine';
import { openDatabase } from '../lib/db/open-database';
import { applyRoleBootstrap } from '../lib/db/role-bootstrap';
import {
  type AccountRecord,
  findAccountByEmail,
  grantRole,
  markEmailVerified,
  recordAccountEvent,
  removeUnverifiedAccount,
  revokeRole,
  roleNamePattern,
  storedRolesOf,
  storePluginRole,
} from '../lib/db/user-roles';
import { encodeBusMessage, eventBusChannel } from '../lib/server/event-bus-message';
import {
  checkStartupConfiguration,
  type StartupConfiguration,
} from '../lib/startup/check-startup-configuration';

const usage = `Usage: npm run users -- verify <email>
       npm run users -- grant <email> <role>
       npm run users -- revoke <email> <role>
       npm run users -- roles <email>
       npm run users -- remove-unverified <email>`;

class UsageError extends Error {}

/**
 * Tells the running servers, over the Redis bus they share (`REDIS_URL`), that what the
 * user holds open (their inbox and approval-page streams) must end. Without Redis no
 * server hears it here: those streams end within minutes on their own. A failure is told
 * in the output, never turned into a failed command (the change is made).
 */
async function tellServers(config: AppConfig, userId: string): Promise<string> {
  if (!config.REDIS_URL) return '';
  const client = createClient({
    url: config.REDIS_URL,
    socket: { connectTimeout: 2_000, reconnectStrategy: false },
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.publish(
      eventBusChannel,
      encodeBusMessage(`users-cli-${randomUUID()}`, 'access', { userId }),
    );
    return '';
  } catch (error) {
    return ` (running servers were not told at once: ${(error as Error).message})`;
  } finally {
    client.destroy();
  }
}

async function accountOf(db: Db, email: string | undefined): Promise<AccountRecord> {
  if (email === undefined) throw new UsageError(usage);
  const account = await findAccountByEmail(db, normalizeEmail(email));
  if (account === undefined || account.isAnonymous) throw new UsageError(`No account has the email ${email}`);
  return account;
}

function roleOf(role: string | undefined): string {
  if (role === undefined) throw new UsageError(usage);
  if (!roleNamePattern.test(role)) {
    throw new UsageError(
      `"${role}" is not a role name: use lower-case letters, digits, - and _, starting with a letter (e.g. supervisor)`,
    );
  }
  return role;
}

async function run(db: Db, { config, policy }: StartupConfiguration, args: string[]): Promise<string> {
  const adminEmails = config.TOOLGATE_ADMIN_EMAILS;
  const [command, email, roleArgument, ...rest] = args;
  if (rest.length > 0) throw new UsageError(usage);
  const account = await accountOf(db, email);
  // The admin plugin's copy of the admin role follows every change made here.
  const settle = async () => {
    const fresh = (await findAccountByEmail(db, account.email)) as AccountRecord;
    const roles = computeRoles(fresh, await storedRolesOf(db, account.id), adminEmails);
    await storePluginRole(db, account.id, roles.includes('admin'));
    return roles;
  };
  const rolesText = (roles: string[]) => (roles.length === 0 ? 'none' : roles.join(', '));
  switch (command) {
    case 'verify': {
      if (roleArgument !== undefined) throw new UsageError(usage);
      await markEmailVerified(db, account.id);
      await recordAccountEvent(db, { actorId: null, action: 'email-verified', targetUserId: account.id });
      // Roles the policy file lists the email under are given now, once, as the server would.
      const listed = policy === undefined ? [] : (rolesByEmailOf(policy).get(account.email) ?? []);
      for (const role of listed) await applyRoleBootstrap(db, account.email, role);
      return `Verified ${account.email}; roles now: ${rolesText(await settle())}`;
    }
    case 'grant': {
      const role = roleOf(roleArgument);
      const added = await grantRole(db, account.id, role);
      if (added)
        await recordAccountEvent(db, {
          actorId: null,
          action: 'role-granted',
          targetUserId: account.id,
          detail: { role },
        });
      const note = account.emailVerified ? '' : ' (it counts once the email is verified)';
      return `${added ? 'Granted' : 'Already held:'} ${role} for ${account.email}${note}; roles now: ${rolesText(await settle())}`;
    }
    case 'revoke': {
      const role = roleOf(roleArgument);
      const removed = await revokeRole(db, account.id, role);
      if (removed)
        await recordAccountEvent(db, {
          actorId: null,
          action: 'role-revoked',
          targetUserId: account.id,
          detail: { role },
        });
      const adminNote =
        role === 'admin' && adminEmails.has(account.email)
          ? ' (still admin: the email is in TOOLGATE_ADMIN_EMAILS)'
          : '';
      const roles = await settle();
      const toldNote = removed ? await tellServers(config, account.id) : '';
      return `${removed ? 'Revoked' : 'Did not hold:'} ${role} for ${account.email}${adminNote}; roles now: ${rolesText(roles)}${toldNote}`;
    }
    case 'roles': {
      if (roleArgument !== undefined) throw new UsageError(usage);
      const roles = computeRoles(account, await storedRolesOf(db, account.id), adminEmails);
      return `${account.email}${account.emailVerified ? '' : ' (email not verified)'}: ${rolesText(roles)}`;
    }
    case 'remove-unverified': {
      if (roleArgument !== undefined) throw new UsageError(usage);
      if (!(await removeUnverifiedAccount(db, account.id))) {
        throw new UsageError(`${account.email} is verified: not removed (ban it instead)`);
      }
      await recordAccountEvent(db, {
        actorId: null,
        action: 'unverified-account-removed',
        targetUserId: account.id,
        detail: { email: account.email },
      });
      const toldNote = await tellServers(config, account.id);
      return `Removed ${account.email} (never verified); the address can be signed up again${toldNote}`;
    }
    default:
      throw new UsageError(usage);
  }
}

/** Where {@link runUsersCommand} reads its configuration and writes what it says. */
export type UsersCommandOptions = {
  /** The environment it reads, as the server would (`DATABASE_URL`, `TOOLGATE_POLICY`…). */
  environment: Record<string, string | undefined>;
  /** Receives the line said on success. */
  out: (text: string) => void;
  /** Receives the message of a failure. */
  error: (text: string) => void;
};

/**
 * Runs one command (`argv` as after `npm run users --`); resolves to the exit status, 0 on
 * success, 1 with a message otherwise.
 */
export async function runUsersCommand(
  argv: string[],
  { environment, out, error: say }: UsersCommandOptions,
): Promise<number> {
  let db: Db | undefined;
  try {
    // Checked as the server checks it at start-up: the policy file's roles are given as it would.
    const startup = checkStartupConfiguration(environment);
    db = await openDatabase({ url: startup.config.DATABASE_URL, path: startup.config.DATABASE_PATH });
    out(await run(db, startup, argv));
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError) {
      say(error.message);
      return 1;
    }
    say(`users: ${(error as Error).message}`);
    return 1;
  } finally {
    await db?.destroy();
  }
}

// Run as a command (not imported): read the env files, then the command line.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const file of ['.env.local', '.env']) if (existsSync(file)) process.loadEnvFile(file);
  void runUsersCommand(process.argv.slice(2), {
    environment: process.env,
    out: (text) => console.log(text),
    error: (text) => console.error(text),
  }).then((code) => {
    process.exitCode = code;
  });
}
