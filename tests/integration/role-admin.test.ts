import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/engine';
import { openDatabase } from '@/lib/db/open-database';
import { findAccountByEmail, markEmailVerified, storedRolesOf } from '@/lib/db/user-roles';
import { listAccountEvents } from '../support/database-reads';
import { sessionFetch } from '../support/http-chat';
import { type NextServer, startNextServer } from '../support/next-server';
import { cookieHeaderOf } from '../support/server-env';
import { createEmptyDatabase, databaseEngines, type EmptyDatabase } from '../support/test-database';

const adminEmail = 'boss@example.com';
const supervisorEmail = 'sup1@example.com';
const squatterEmail = 'sup2@example.com';

/** A policy file whose roles list two supervisors. */
function writePolicy(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'toolgate-policy-')), 'policy.json');
  writeFileSync(
    path,
    JSON.stringify({
      roles: { supervisor: [supervisorEmail, squatterEmail.toUpperCase()] },
      rules: [{ tool: 'createTicket', approvers: [{ role: 'supervisor' }] }],
    }),
  );
  return path;
}

/** Signs up by email on a server that lets unverified accounts in; returns the session cookie. */
async function signUp(server: NextServer, email: string): Promise<string> {
  const response = await fetch(`${server.url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'a long unusual passphrase', name: email.split('@')[0] }),
  });
  expect(response.status).toBe(200);
  return cookieHeaderOf(response);
}

async function signIn(server: NextServer, email: string): Promise<string> {
  const response = await fetch(`${server.url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'a long unusual passphrase' }),
  });
  expect(response.status).toBe(200);
  return cookieHeaderOf(response);
}

function postJson(server: NextServer, path: string, cookie: string, body: unknown): Promise<Response> {
  return sessionFetch(`${server.url}${path}`, {
    cookie,
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify(body),
  });
}

async function accountId(db: Db, email: string): Promise<string> {
  const account = await findAccountByEmail(db, email);
  if (account === undefined) throw new Error(`no account for ${email}`);
  return account.id;
}

describe.each(databaseEngines)('roles from the policy file and /api/admin/roles on %s', (engine) => {
  let target: EmptyDatabase | undefined;
  let server: NextServer | undefined;
  let db: Db | undefined;

  afterEach(async () => {
    await server?.stop();
    await db?.destroy();
    await target?.drop();
    server = undefined;
    db = undefined;
  });

  it('gives a listed role only once verified, keeps an admin’s revoke over a restart, and audits grants', async () => {
    target = await createEmptyDatabase(engine);
    const environment = {
      ...(target.environment as Record<string, string>),
      AI_MODEL: 'offline',
      TOOLGATE_POLICY: writePolicy(),
      TOOLGATE_ADMIN_EMAILS: adminEmail,
      TOOLGATE_ALLOW_UNVERIFIED_SIGNUP: '1',
    };
    server = await startNextServer(environment);
    db = await openDatabase({ url: target.url, path: target.path });

    await signUp(server, adminEmail);
    await signUp(server, supervisorEmail);
    // Someone else signs up with the second listed address and never verifies it.
    const squatter = await signUp(server, squatterEmail);
    await markEmailVerified(db, await accountId(db, adminEmail));
    const admin = await signIn(server, adminEmail);
    const supervisorId = await accountId(db, supervisorEmail);
    const squatterId = await accountId(db, squatterEmail);

    // Unverified and listed: requests give no role and do not use the listing up.
    expect((await sessionFetch(`${server.url}/api/chats`, { cookie: squatter })).status).toBe(200);
    expect(await storedRolesOf(db, squatterId)).toEqual([]);

    // Verified while the server runs (as the mailed link does): the next request stores the role.
    await markEmailVerified(db, supervisorId);
    const supervisor = await signIn(server, supervisorEmail);
    expect((await sessionFetch(`${server.url}/api/chats`, { cookie: supervisor })).status).toBe(200);
    expect(await storedRolesOf(db, supervisorId)).toEqual(['supervisor']);

    const listed = await sessionFetch(`${server.url}/api/admin/roles?q=SUP`, { cookie: admin });
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual({
      users: [
        {
          id: supervisorId,
          email: supervisorEmail,
          name: 'sup1',
          emailVerified: true,
          roles: ['supervisor'],
          fileRoles: ['supervisor'],
          adminByConfig: false,
        },
        {
          id: squatterId,
          email: squatterEmail,
          name: 'sup2',
          emailVerified: false,
          roles: [],
          fileRoles: [],
          adminByConfig: false,
        },
      ],
      nextOffset: null,
    });

    // Paged and bounded; `%` and `_` in a search are letters, not wildcards.
    const firstPage = await (
      await sessionFetch(`${server.url}/api/admin/roles?q=sup&limit=1`, { cookie: admin })
    ).json();
    expect(firstPage).toMatchObject({ users: [{ email: supervisorEmail }], nextOffset: 1 });
    const secondPage = await (
      await sessionFetch(`${server.url}/api/admin/roles?q=sup&limit=1&offset=1`, { cookie: admin })
    ).json();
    expect(secondPage).toMatchObject({ users: [{ email: squatterEmail }], nextOffset: null });
    const wildcard = await (
      await sessionFetch(`${server.url}/api/admin/roles?q=%25`, { cookie: admin })
    ).json();
    expect(wildcard).toEqual({ users: [], nextOffset: null });
    const tooMany = await sessionFetch(`${server.url}/api/admin/roles?limit=101`, { cookie: admin });
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json()).error).toMatch(/^limit: /);

    const revoked = await postJson(server, '/api/admin/roles/revoke', admin, {
      userId: supervisorId,
      role: 'supervisor',
    });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({
      userId: supervisorId,
      role: 'supervisor',
      changed: true,
      roles: [],
    });
    // A revoke applies to the next request.
    expect((await sessionFetch(`${server.url}/api/chats`, { cookie: supervisor })).status).toBe(200);
    expect(await storedRolesOf(db, supervisorId)).toEqual([]);

    // A restart (which bootstraps at start-up) and the user's next request leave the revoke standing.
    await server.stop();
    server = await startNextServer(environment);
    expect((await sessionFetch(`${server.url}/api/chats`, { cookie: supervisor })).status).toBe(200);
    expect(await storedRolesOf(db, supervisorId)).toEqual([]);

    // The other listed address, once verified, still gets its role: the requests it made
    // unverified did not use the listing up.
    await markEmailVerified(db, squatterId);
    expect((await sessionFetch(`${server.url}/api/chats`, { cookie: squatter })).status).toBe(200);
    expect(await storedRolesOf(db, squatterId)).toEqual(['supervisor']);

    const granted = await postJson(server, '/api/admin/roles/grant', admin, {
      userId: supervisorId,
      role: 'finance',
    });
    expect(await granted.json()).toEqual({
      userId: supervisorId,
      role: 'finance',
      changed: true,
      roles: ['finance'],
    });
    const again = await postJson(server, '/api/admin/roles/grant', admin, {
      userId: supervisorId,
      role: 'finance',
    });
    expect(await again.json()).toMatchObject({ changed: false });

    const adminId = await accountId(db, adminEmail);
    const roleEvents = (await listAccountEvents(db))
      .filter((event) => event.action.startsWith('role-'))
      .map(({ actorId, action, targetUserId, detail }) => ({ actorId, action, targetUserId, detail }));
    expect(roleEvents).toEqual([
      {
        actorId: null,
        action: 'role-granted',
        targetUserId: supervisorId,
        detail: { role: 'supervisor', source: 'TOOLGATE_POLICY' },
      },
      {
        actorId: adminId,
        action: 'role-revoked',
        targetUserId: supervisorId,
        detail: { role: 'supervisor' },
      },
      {
        actorId: null,
        action: 'role-granted',
        targetUserId: squatterId,
        detail: { role: 'supervisor', source: 'TOOLGATE_POLICY' },
      },
      { actorId: adminId, action: 'role-granted', targetUserId: supervisorId, detail: { role: 'finance' } },
    ]);
  });

  it('gives a listed role at start-up to an account verified before it, answers 404 to non-admins and 400 to a bad role', async () => {
    target = await createEmptyDatabase(engine);
    const environment = {
      ...(target.environment as Record<string, string>),
      AI_MODEL: 'offline',
      TOOLGATE_ADMIN_EMAILS: adminEmail,
      TOOLGATE_ALLOW_UNVERIFIED_SIGNUP: '1',
    };
    // First without a policy: the accounts exist and are verified before any policy names them.
    server = await startNextServer(environment);
    db = await openDatabase({ url: target.url, path: target.path });
    await signUp(server, adminEmail);
    await signUp(server, supervisorEmail);
    await markEmailVerified(db, await accountId(db, adminEmail));
    const supervisorId = await accountId(db, supervisorEmail);
    await markEmailVerified(db, supervisorId);
    await server.stop();

    server = await startNextServer({ ...environment, TOOLGATE_POLICY: writePolicy() });
    // Nobody has made a request yet: the start-up gave it.
    expect(await storedRolesOf(db, supervisorId)).toEqual(['supervisor']);

    const admin = await signIn(server, adminEmail);
    const supervisor = await signIn(server, supervisorEmail);
    const guest = await (
      await fetch(`${server.url}/api/auth/sign-in/anonymous`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
    ).headers
      .getSetCookie()
      .map((cookie) => cookie.split(';')[0])
      .join('; ');
    for (const cookie of [supervisor, guest]) {
      const list = await sessionFetch(`${server.url}/api/admin/roles`, { cookie });
      expect(list.status).toBe(404);
      expect(await list.json()).toEqual({ error: 'Not found' });
      const grant = await postJson(server, '/api/admin/roles/grant', cookie, {
        userId: supervisorId,
        role: 'admin',
      });
      expect(grant.status).toBe(404);
      const page = await sessionFetch(`${server.url}/admin/roles`, { cookie });
      expect(page.status).toBe(404);
    }
    expect(await storedRolesOf(db, supervisorId)).toEqual(['supervisor']);
    expect((await sessionFetch(`${server.url}/admin/roles`, { cookie: admin })).status).toBe(200);

    for (const role of ['Super Visor', '', '1st', 'x'.repeat(41)]) {
      const response = await postJson(server, '/api/admin/roles/grant', admin, {
        userId: supervisorId,
        role,
      });
      expect(response.status).toBe(400);
      expect((await response.json()).error).toMatch(/^role: role must be lower-case letters/);
    }
    const unknownField = await postJson(server, '/api/admin/roles/grant', admin, {
      userId: supervisorId,
      role: 'x',
      extra: 1,
    });
    expect(unknownField.status).toBe(400);
    const unknownUser = await postJson(server, '/api/admin/roles/grant', admin, {
      userId: 'nobody',
      role: 'finance',
    });
    expect(unknownUser.status).toBe(404);
    expect(await storedRolesOf(db, supervisorId)).toEqual(['supervisor']);
    // Another site's page cannot make an admin's browser grant a role.
    const crossSite = await sessionFetch(`${server.url}/api/admin/roles/grant`, {
      cookie: admin,
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify({ userId: supervisorId, role: 'finance' }),
    });
    expect(crossSite.status).toBe(403);
    expect(await storedRolesOf(db, supervisorId)).toEqual(['supervisor']);
  });
});
