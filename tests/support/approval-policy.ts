import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findAccountByEmail, getDb, grantRole, revokeRole } from '@/lib/db';
import { runUsersCommand } from '@/scripts/users';
import { signUpUser } from './server-env';

/**
 * A policy file for the approval tests, written against `createTicket` (whose `title`
 * the rules compare): one title is refused, others need one or two supervisors, one a
 * supervisor with a short deadline, one the requester and then a supervisor; every
 * other ticket asks its requester. A refund above 50 needs a supervisor.
 */
export const testPolicy = {
  roles: {},
  rules: [
    { tool: 'createTicket', when: { title: { eq: 'forbidden' } }, effect: 'deny' },
    {
      tool: 'createTicket',
      when: { title: { eq: 'big refund' } },
      approvers: [{ role: 'supervisor' }, { role: 'supervisor' }],
      timeoutMs: 14_400_000,
    },
    {
      tool: 'createTicket',
      when: { title: { eq: 'small refund' } },
      approvers: [{ role: 'supervisor' }],
      timeoutMs: 14_400_000,
    },
    {
      tool: 'createTicket',
      when: { title: { eq: 'hurry' } },
      approvers: [{ role: 'supervisor' }],
      timeoutMs: 1500,
    },
    {
      tool: 'createTicket',
      when: { title: { eq: 'both' } },
      approvers: ['requester', { role: 'supervisor' }],
    },
    { tool: 'createTicket', approvers: ['requester'] },
    {
      tool: 'issueRefund',
      when: { amount: { gt: 50 } },
      approvers: [{ role: 'supervisor' }],
      timeoutMs: 14_400_000,
    },
  ],
};

/** Writes `policy` to a fresh file and returns its path (for `TOOLGATE_POLICY`). */
export function writePolicyFile(policy: unknown = testPolicy): string {
  const path = join(mkdtempSync(join(tmpdir(), 'toolgate-policy-')), 'policy.json');
  writeFileSync(path, JSON.stringify(policy));
  return path;
}

/** A verified account holding `role` (granted as an admin would): its cookie and user id. */
export async function signUpWithRole(email: string, role?: string): Promise<{ cookie: string; id: string }> {
  const cookie = await signUpUser(email);
  const db = await getDb();
  const account = await findAccountByEmail(db, email);
  if (account === undefined) throw new Error(`no account for ${email}`);
  if (role !== undefined) await grantRole(db, account.id, role);
  return { cookie, id: account.id };
}

/** Takes `role` away from the account of `userId`. */
export async function revokeRoleOf(userId: string, role: string): Promise<void> {
  await revokeRole(await getDb(), userId, role);
}

/**
 * Runs the operators' CLI (`npm run users -- …`, its `runUsersCommand` in this process) with
 * `environment` (the database, maybe Redis); returns what it printed, and throws with its
 * message when it fails, as a failed process would.
 */
export async function runUsersCli(
  environment: Record<string, string | undefined>,
  ...args: string[]
): Promise<string> {
  const out: string[] = [];
  const errors: string[] = [];
  const code = await runUsersCommand(args, {
    environment: { ...process.env, DATABASE_URL: '', ...environment },
    out: (text) => out.push(text),
    error: (text) => errors.push(text),
  });
  if (code !== 0) throw new Error(`npm run users -- ${args.join(' ')} failed: ${errors.join('\n')}`);
  return out.map((line) => `${line}\n`).join('');
}

/**
 * On a running server: signs up an account (the server allows unverified sign-up), has
 * the operators' CLI verify it and grant `role` on the server's database, then signs in.
 * Returns the session's `cookie` header.
 */
export async function signUpApproverOn(
  baseUrl: string,
  email: string,
  role: string | undefined,
  databaseEnvironment: Record<string, string | undefined>,
): Promise<string> {
  const password = 'a long unusual passphrase for tests';
  const json = { 'content-type': 'application/json' };
  const signedUp = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email, password, name: email.split('@')[0] }),
  });
  if (!signedUp.ok) throw new Error(`sign-up of ${email} answered ${signedUp.status}`);
  await runUsersCli(databaseEnvironment, 'verify', email);
  if (role !== undefined) await runUsersCli(databaseEnvironment, 'grant', email, role);
  const signedIn = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email, password }),
  });
  if (!signedIn.ok) throw new Error(`sign-in of ${email} answered ${signedIn.status}`);
  return signedIn.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}
