import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { POST as approve } from '@/app/api/chat/approve/route';
import { POST as chat } from '@/app/api/chat/route';
import { bootstrapListedUsers } from '@/lib/auth/bootstrap-roles';
import { listRoleHolders } from '@/lib/auth/role-admin';
import { getDb, storedRolesOf } from '@/lib/db';
import { getPolicy } from '@/lib/policy';
import { signUpWithRole, testPolicy, writePolicyFile } from '../support/approval-policy';
import { askForApproval, openApprovalEvents } from '../support/approval-requests';
import { ChatStreamReader, jsonRequest, userMessage } from '../support/chat-client';
import { listAccountEvents } from '../support/database-reads';
import { eventStreamReader } from '../support/event-stream-reader';
import { startUpAgain } from '../support/process-configuration';
import { configureServerOn } from '../support/server-env';
import { databaseEngines } from '../support/test-database';

describe.each(databaseEngines)('roles the policy file gives, on %s', (engine) => {
  it('are marked as the file’s and go when the email leaves the file; an admin’s grant stays', async () => {
    const listed = `file-sup-${engine}@example.com`;
    const dropped = `file-gone-${engine}@example.com`;
    const granted = `admin-sup-${engine}@example.com`;
    const path = writePolicyFile({ ...testPolicy, roles: { supervisor: [listed, dropped] } });
    await configureServerOn(engine, { TOOLGATE_POLICY: path, TOOLGATE_PARK_AFTER_MS: '50' });
    const db = await getDb();
    const kept = await signUpWithRole(listed);
    const gone = await signUpWithRole(dropped);
    const admins = await signUpWithRole(granted, 'supervisor');
    await bootstrapListedUsers(db, getPolicy());
    expect(await storedRolesOf(db, gone.id)).toEqual(['supervisor']);
    const { users } = await listRoleHolders({ emailContains: engine, limit: 10, offset: 0 });
    expect(users.map((user) => [user.email, user.roles, user.fileRoles])).toEqual([
      [granted, ['supervisor'], []],
      [dropped, ['supervisor'], ['supervisor']],
      [listed, ['supervisor'], ['supervisor']],
    ]);

    // The file loses one email; picked up (at start-up), the role goes with it.
    writeFileSync(path, JSON.stringify({ ...testPolicy, roles: { supervisor: [listed] } }));
    startUpAgain();
    await bootstrapListedUsers(db, getPolicy());
    expect(await storedRolesOf(db, gone.id)).toEqual([]);
    expect(await storedRolesOf(db, kept.id)).toEqual(['supervisor']);
    expect(await storedRolesOf(db, admins.id)).toEqual(['supervisor']);
    expect(
      (await listAccountEvents(db)).filter(
        (event) => event.action === 'role-revoked' && event.targetUserId === gone.id,
      ),
    ).toHaveLength(1);

    // The email that left the file cannot decide a supervisor's step any more.
    const requester = await signUpWithRole(`file-req-${engine}@example.com`);
    const response = await chat(
      jsonRequest(
        '/api/chat',
        { id: `chat-file-${engine}`, message: userMessage('create a ticket: small refund') },
        { cookie: requester.cookie },
      ),
    );
    const approvalId = (await new ChatStreamReader(response).until('tool-approval-request'))
      .approvalId as string;
    const refused = await approve(
      jsonRequest('/api/chat/approve', { approvalId, approved: true }, { cookie: gone.cookie }),
    );
    expect(refused.status).toBe(404);
    const allowed = await approve(
      jsonRequest('/api/chat/approve', { approvalId, approved: true }, { cookie: kept.cookie }),
    );
    expect(await allowed.json()).toMatchObject({ status: 'approved' });
  });

  it('ends the open inbox stream of an email the file no longer lists, at once, as an admin’s revoke does', async () => {
    const dropped = `file-stream-${engine}@example.com`;
    const path = writePolicyFile({ ...testPolicy, roles: { supervisor: [dropped] } });
    await configureServerOn(engine, { TOOLGATE_POLICY: path, TOOLGATE_PARK_AFTER_MS: '50' });
    const db = await getDb();
    const gone = await signUpWithRole(dropped);
    await bootstrapListedUsers(db, getPolicy());
    const { response, controller } = await openApprovalEvents('inbox=1', gone.cookie);
    expect(response.status).toBe(200);
    const inbox = eventStreamReader(response);
    await inbox.until(': listening');

    writeFileSync(path, JSON.stringify({ ...testPolicy, roles: { supervisor: [] } }));
    startUpAgain();
    await bootstrapListedUsers(db, getPolicy());
    const requester = await signUpWithRole(`file-stream-req-${engine}@example.com`);
    // Someone else still holds the role, or the request is refused at once (no_approver).
    await signUpWithRole(`file-stream-other-${engine}@example.com`, 'supervisor');
    const { approvalId: later } = await askForApproval(
      `chat-file-stream-${engine}`,
      'create a ticket: small refund',
      requester.cookie,
    );
    // Ended by the server well before the streams' five-minute life, carrying nothing of the new request.
    const ended = await Promise.race([
      inbox.end(),
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 5_000)),
    ]);
    controller.abort();
    await inbox.cancel();
    expect(ended).toBeDefined();
    expect(ended).not.toContain(later);
    // Reconnecting, the browser finds no inbox any more.
    expect((await openApprovalEvents('inbox=1', gone.cookie)).response.status).toBe(404);
  });
});
