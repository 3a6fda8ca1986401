import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runUsersCli, signUpApproverOn, writePolicyFile } from '../support/approval-policy';
import { eventStreamReader } from '../support/event-stream-reader';
import { postChat, sessionFetch, singleMessageChat } from '../support/http-chat';
import { type NextServer, startNextServer } from '../support/next-server';
import { createEmptyDatabase } from '../support/test-database';

describe('the approvers’ inbox across instances', () => {
  const servers: NextServer[] = [];
  let a: NextServer;
  let b: NextServer;
  let databaseEnvironment: Record<string, string | undefined>;
  let requester: string;

  beforeAll(async () => {
    const database = await createEmptyDatabase('postgres');
    databaseEnvironment = database.environment;
    const environment = {
      ...(database.environment as Record<string, string>),
      REDIS_URL: inject('redisUrl'),
      AI_MODEL: 'offline',
      OFFLINE_MODEL_DELAY_MS: '0',
      TOOLGATE_POLICY: writePolicyFile(),
      TOOLGATE_ALLOW_UNVERIFIED_SIGNUP: '1',
    };
    [a, b] = await Promise.all([startNextServer(environment), startNextServer(environment)]);
    servers.push(a, b);
    // Only a signed-in, verified user may ask a supervisor.
    requester = await signUpApproverOn(a.url, 'inbox-req@example.com', undefined, databaseEnvironment);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
  });

  /** Asks on instance A for a call a supervisor must decide; returns its id. */
  async function askOnA(chatId: string): Promise<string> {
    const reader = await postChat(a.url, singleMessageChat(chatId, 'create a ticket: small refund'), {
      cookie: requester,
    });
    return (await reader.until('tool-approval-request')).approvalId as string;
  }

  it('hears on instance B of a request made and decided on instance A, and lists it only while it waits', async () => {
    const onA = await signUpApproverOn(a.url, 'inbox-a@example.com', 'supervisor', databaseEnvironment);
    const onB = await signUpApproverOn(b.url, 'inbox-b@example.com', 'supervisor', databaseEnvironment);
    const inbox = async () =>
      (
        (await (await sessionFetch(`${b.url}/api/approvals`, { cookie: onB })).json()) as {
          approvals: { approvalId: string }[];
        }
      ).approvals.map((item) => item.approvalId);

    const events = eventStreamReader(
      await sessionFetch(`${b.url}/api/approvals/events?inbox=1`, { cookie: onB }),
    );
    await events.until(': listening');
    const approvalId = await askOnA('inbox-pair');
    await events.until(`"approvalId":"${approvalId}"`);
    expect(await inbox()).toEqual([approvalId]);

    const decided = await sessionFetch(`${a.url}/api/chat/approve`, {
      method: 'POST',
      cookie: onA,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ approvalId, approved: true }),
    });
    expect(await decided.json()).toMatchObject({ status: 'approved' });
    // A second event for the same approval: its decision, published on A.
    await events.until(`"approvalId":"${approvalId}"`, 2);
    expect(await inbox()).toEqual([]);
    await events.cancel();
  }, 120_000);

  it('ends a stream on instance B when the operators’ CLI revokes its role, or its session signs out on A', async () => {
    const revoked = await signUpApproverOn(
      b.url,
      'inbox-revoked@example.com',
      'supervisor',
      databaseEnvironment,
    );
    const leaver = await signUpApproverOn(
      b.url,
      'inbox-leaver@example.com',
      'supervisor',
      databaseEnvironment,
    );
    const revokedStream = eventStreamReader(
      await sessionFetch(`${b.url}/api/approvals/events?inbox=1`, { cookie: revoked }),
    );
    const leaverStream = eventStreamReader(
      await sessionFetch(`${b.url}/api/approvals/events?inbox=1`, { cookie: leaver }),
    );
    await revokedStream.until(': listening');
    await leaverStream.until(': listening');

    const told = await runUsersCli(
      { ...databaseEnvironment, REDIS_URL: inject('redisUrl') },
      'revoke',
      'inbox-revoked@example.com',
      'supervisor',
    );
    expect(told).toContain('Revoked supervisor');
    const signedOut = await sessionFetch(`${a.url}/api/auth/sign-out`, {
      method: 'POST',
      cookie: leaver,
      headers: { origin: a.url },
    });
    expect(signedOut.status).toBe(200);

    const later = await askOnA('inbox-after-revoke');
    expect(await revokedStream.end()).not.toContain(later);
    expect(await leaverStream.end()).not.toContain(later);
    const again = await sessionFetch(`${b.url}/api/approvals/events?inbox=1`, { cookie: revoked });
    expect(again.status).toBe(404);
  }, 120_000);
});
