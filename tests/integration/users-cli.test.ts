import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getSessionUser } from '@/lib/auth/session-user';
import { findAccountByEmail, getDb } from '@/lib/db';
import { signIn, signUp } from '../support/auth-client';
import { listAccountEvents } from '../support/database-reads';
import { configureServerOn } from '../support/server-env';
import { databaseEngines } from '../support/test-database';
import { runUsersInProcess, runUsersProcess } from '../support/users-cli';

/** The database, admin list and policy of the server the test configured. */
function serverEnvironment() {
  return {
    DATABASE_URL: process.env.DATABASE_URL ?? '',
    DATABASE_PATH: process.env.DATABASE_PATH,
    TOOLGATE_ADMIN_EMAILS: process.env.TOOLGATE_ADMIN_EMAILS ?? '',
    TOOLGATE_POLICY: process.env.TOOLGATE_POLICY ?? '',
  };
}

/** `npm run users -- …` on the database the test server uses, run in this process. */
function users(...args: string[]) {
  return runUsersInProcess(serverEnvironment(), ...args);
}

/** The same as a `tsx scripts/users.ts` process: its exit code and its output streams. */
function usersProcess(...args: string[]) {
  return runUsersProcess(serverEnvironment(), ...args);
}

async function rolesOfSession(cookie: string) {
  const user = await getSessionUser(new Headers({ cookie }));
  return { roles: user?.roles, isAdmin: user?.isAdmin, emailVerified: user?.emailVerified };
}

describe.each(databaseEngines)('npm run users on %s', (engine) => {
  it('verifies an email, which makes a listed admin an admin; grants and revokes roles', async () => {
    await configureServerOn(engine, { TOOLGATE_ADMIN_EMAILS: 'boss@example.com' });
    expect((await signUp('Boss@Example.com')).response.status).toBe(200);
    // Unverified: no sign-in while a link could be sent.
    expect((await signIn('boss@example.com')).response.status).toBe(403);

    const verified = await usersProcess('verify', 'BOSS@example.com');
    expect(verified, verified.stderr).toMatchObject({ code: 0 });
    expect(verified.stdout).toMatch(/Verified boss@example\.com; roles now: admin/);
    const { cookie } = await signIn('boss@example.com');
    expect(await rolesOfSession(cookie)).toEqual({ roles: ['admin'], isAdmin: true, emailVerified: true });

    const granted = await users('grant', 'boss@example.com', 'supervisor');
    expect(granted.code).toBe(0);
    expect(await rolesOfSession(cookie)).toMatchObject({ roles: ['admin', 'supervisor'] });

    const revoked = await users('revoke', 'boss@example.com', 'supervisor');
    expect(revoked.code).toBe(0);
    expect(await rolesOfSession(cookie)).toMatchObject({ roles: ['admin'] });

    const events = await listAccountEvents(await getDb());
    expect(events.map((event) => [event.actorId, event.action, event.detail])).toEqual([
      [null, 'email-verified', undefined],
      [null, 'role-granted', { role: 'supervisor' }],
      [null, 'role-revoked', { role: 'supervisor' }],
    ]);
  });

  it('grants admin to someone not listed, only once their email is verified', async () => {
    await configureServerOn(engine);
    expect((await signUp('helper@example.com')).response.status).toBe(200);
    expect((await users('grant', 'helper@example.com', 'admin')).stdout).toMatch(
      /counts once the email is verified/,
    );
    const account = await findAccountByEmail(await getDb(), 'helper@example.com');
    expect(account?.role).toBe('user');

    expect((await users('verify', 'helper@example.com')).code).toBe(0);
    const { cookie } = await signIn('helper@example.com');
    expect(await rolesOfSession(cookie)).toMatchObject({ roles: ['admin'], isAdmin: true });
    expect((await findAccountByEmail(await getDb(), 'helper@example.com'))?.role).toBe('admin');

    expect((await users('revoke', 'helper@example.com', 'admin')).code).toBe(0);
    expect(await rolesOfSession(cookie)).toMatchObject({ roles: [], isAdmin: false });
  });

  it('removes an account nobody verified, so its address can be signed up afresh, but never a verified one', async () => {
    await configureServerOn(engine, { TOOLGATE_ADMIN_EMAILS: 'boss@example.com' });
    expect((await signUp('boss@example.com', 'the squatter chose this')).response.status).toBe(200);
    const squatted = await findAccountByEmail(await getDb(), 'boss@example.com');

    const removed = await users('remove-unverified', 'Boss@Example.com');
    expect(removed, removed.stderr).toMatchObject({ code: 0 });
    expect(removed.stdout).toMatch(/Removed boss@example\.com/);
    expect(await findAccountByEmail(await getDb(), 'boss@example.com')).toBeUndefined();
    expect((await signIn('boss@example.com', 'the squatter chose this')).response.status).toBe(401);

    // The owner signs up; an operator who knows they did verifies it.
    expect((await signUp('boss@example.com')).response.status).toBe(200);
    const owner = await findAccountByEmail(await getDb(), 'boss@example.com');
    expect(owner?.id).not.toBe(squatted?.id);
    expect((await users('verify', 'boss@example.com')).code).toBe(0);
    const refused = await users('remove-unverified', 'boss@example.com');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/is verified/);
    expect(await findAccountByEmail(await getDb(), 'boss@example.com')).toMatchObject({ id: owner?.id });

    const events = await listAccountEvents(await getDb());
    expect(events.map((event) => [event.action, event.targetUserId, event.detail])).toEqual([
      ['unverified-account-removed', squatted?.id, { email: 'boss@example.com' }],
      ['email-verified', owner?.id, undefined],
    ]);
  });

  it('gives the roles the policy file lists on verify, once: a revoke afterwards stands', async () => {
    const policy = join(mkdtempSync(join(tmpdir(), 'toolgate-policy-')), 'policy.json');
    writeFileSync(policy, JSON.stringify({ roles: { supervisor: ['Sup@Example.com'] }, rules: [] }));
    await configureServerOn(engine, { TOOLGATE_POLICY: policy });
    expect((await signUp('sup@example.com')).response.status).toBe(200);

    const verified = await users('verify', 'sup@example.com');
    expect(verified, verified.stderr).toMatchObject({ code: 0 });
    expect(verified.stdout).toMatch(/Verified sup@example\.com; roles now: supervisor/);
    expect((await users('revoke', 'sup@example.com', 'supervisor')).code).toBe(0);
    expect((await users('verify', 'sup@example.com')).stdout).toMatch(/roles now: none/);
    const { cookie } = await signIn('sup@example.com');
    expect(await rolesOfSession(cookie)).toMatchObject({ roles: [] });
  });

  it('fails with a message for an unknown email, a bad role name or a bad command', async () => {
    await configureServerOn(engine);
    expect((await signUp('known@example.com')).response.status).toBe(200);

    const unknown = await usersProcess('verify', 'nobody@example.com');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No account has the email nobody@example\.com/);

    const badRole = await users('grant', 'known@example.com', 'Super Visor');
    expect(badRole.code).toBe(1);
    expect(badRole.stderr).toMatch(/not a role name/);

    const badCommand = await users('promote', 'known@example.com');
    expect(badCommand.code).toBe(1);
    expect(badCommand.stderr).toMatch(/Usage: npm run users/);

    const missing = await users();
    expect(missing.code).toBe(1);
    expect(await listAccountEvents(await getDb())).toEqual([]);
  });
});
