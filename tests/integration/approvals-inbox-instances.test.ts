import { afterAll, describe, expect, inject, it } from 'vitest';
import { signUpApproverOn, writePolicyFile } from '../support/approval-policy';
import { postChat, sessionFetch, singleMessageChat } from '../support/http-chat';
import { type NextServer, startNextServer } from '../support/next-server';
import { createEmptyDatabase } from '../support/test-database';

/** Reads a server-sent event stream: waits for text, a chunk at a time. */
function eventReader(response: Response) {
  const text = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return {
    /** Resolves once `needle` has arrived `times` times in all. */
    async until(needle: string, times = 1) {
      while (buffer.split(needle).length - 1 < times) buffer += (await text?.read())?.value ?? '';
    },
    cancel: () => text?.cancel(),
  };
}

describe('the approvers’ inbox across instances', () => {
  const servers: NextServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
  });

  it('hears on instance B of a request made and decided on instance A, and lists it only while it waits', async () => {
    const database = await createEmptyDatabase('postgres');
    const environment = {
      ...(database.environment as Record<string, string>),
      REDIS_URL: inject('redisUrl'),
      AI_MODEL: 'offline',
      OFFLINE_MODEL_DELAY_MS: '0',
      TOOLGATE_POLICY: writePolicyFile(),
      TOOLGATE_ALLOW_UNVERIFIED_SIGNUP: '1',
    };
    const [a, b] = await Promise.all([startNextServer(environment), startNextServer(environment)]);
    servers.push(a, b);
    // Only a signed-in, verified user may ask a supervisor.
    const requester = await signUpApproverOn(a.url, 'inbox-req@example.com', undefined, database.environment);
    const onA = await signUpApproverOn(a.url, 'inbox-a@example.com', 'supervisor', database.environment);
    const onB = await signUpApproverOn(b.url, 'inbox-b@example.com', 'supervisor', database.environment);
    const inbox = async () =>
      (
        (await (await sessionFetch(`${b.url}/api/approvals`, { cookie: onB })).json()) as {
          approvals: { approvalId: string }[];
        }
      ).approvals.map((item) => item.approvalId);

    const events = eventReader(await sessionFetch(`${b.url}/api/approvals/events?inbox=1`, { cookie: onB }));
    await events.until(': listening');
    const reader = await postChat(a.url, singleMessageChat('inbox-pair', 'create a ticket: small refund'), {
      cookie: requester,
    });
    const { approvalId } = await reader.until('tool-approval-request');
    await events.until(`"approvalId":"${approvalId}"`);
    expect(await inbox()).toEqual([approvalId]);

    const decided = await sessionFetch(`${a.url}/api/chat/approve`, {
      method: 'POST',
      cookie: onA,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ approvalId, approved: true }),
    });
    expect(await decided.json()).toEqual({ status: 'approved' });
    // A second event for the same approval: its decision, published on A.
    await events.until(`"approvalId":"${approvalId}"`, 2);
    expect(await inbox()).toEqual([]);
    await events.cancel();
  }, 120_000);
});
