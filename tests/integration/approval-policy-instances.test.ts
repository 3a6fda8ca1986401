import { afterAll, describe, expect, inject, it } from 'vitest';
import { signUpApproverOn, writePolicyFile } from '../support/approval-policy';
import { eventStreamReader } from '../support/event-stream-reader';
import { postChat, sessionFetch, singleMessageChat } from '../support/http-chat';
import { type NextServer, startNextServer } from '../support/next-server';
import { createEmptyDatabase } from '../support/test-database';

/*
 * Approvals decided by other people, against production servers: a role step that waits
 * through a crash and restart, and two instances on one Postgres and one Redis deciding
 * the two steps of one call at the same moment.
 */
describe('approvals decided by other people, across processes', () => {
  const servers: NextServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
  });

  const decide = (server: NextServer, approvalId: string, cookie: string) =>
    sessionFetch(`${server.url}/api/chat/approve`, {
      method: 'POST',
      cookie,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ approvalId, approved: true }),
    });
  const getJson = async (server: NextServer, path: string, cookie: string) =>
    (await sessionFetch(`${server.url}${path}`, { cookie })).json();

  it('continues the turn from the database when a role step is decided after a restart', async () => {
    const database = await createEmptyDatabase('sqlite');
    const environment = {
      ...(database.environment as Record<string, string>),
      AI_MODEL: 'offline',
      OFFLINE_MODEL_DELAY_MS: '0',
      TOOLGATE_POLICY: writePolicyFile(),
      TOOLGATE_ALLOW_UNVERIFIED_SIGNUP: '1',
    };
    let server = await startNextServer(environment);
    servers.push(server);
    // Only a signed-in, verified user may ask a supervisor.
    const requester = await signUpApproverOn(
      server.url,
      'restart-req@example.com',
      undefined,
      database.environment,
    );
    const supervisor = await signUpApproverOn(
      server.url,
      'restart-sup@example.com',
      'supervisor',
      database.environment,
    );
    const reader = await postChat(
      server.url,
      singleMessageChat('restart-role', 'create a ticket: small refund'),
      {
        cookie: requester,
      },
    );
    const { approvalId } = await reader.until('tool-approval-request');

    const { port } = server;
    server.process.kill('SIGKILL');
    await new Promise((resolve) => server.process.once('exit', resolve));
    server = await startNextServer(environment, port);
    servers.push(server);

    const response = await decide(server, approvalId, supervisor);
    expect(await response.json()).toMatchObject({ status: 'approved' });
    await expect
      .poll(
        async () =>
          JSON.stringify((await getJson(server, '/api/chats/restart-role', requester)).messages.at(-1)),
        {
          timeout: 20_000,
        },
      )
      .toMatch(/TK-\d{6}[\s\S]*TK-\d{6}/);
    const tickets = (await getJson(server, '/api/tickets', requester)) as { title: string }[];
    expect(tickets.map((ticket) => ticket.title)).toEqual(['small refund']);
  }, 90_000); // Two server starts one after the other: more than the default 30 s on 2 busy cores.

  it('ends approved exactly once when two instances decide the two steps at the same moment', async () => {
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
    const requester = await signUpApproverOn(a.url, 'pair-req@example.com', undefined, database.environment);
    const first = await signUpApproverOn(a.url, 'pair-sup1@example.com', 'supervisor', database.environment);
    const second = await signUpApproverOn(b.url, 'pair-sup2@example.com', 'supervisor', database.environment);
    // B has not used Redis yet: its first decision still reaches the requester's page on A.
    const opening = await postChat(a.url, singleMessageChat('pair-0', 'create a ticket: big refund'), {
      cookie: requester,
    });
    const opened = await opening.until('tool-approval-request');
    const events = await sessionFetch(`${a.url}/api/approvals/events?chatId=pair-0`, { cookie: requester });
    expect(events.status).toBe(200);
    // Fails, rather than spinning, if the stream ends before what is awaited.
    const stream = eventStreamReader(events);
    await stream.until(': listening');
    expect(await (await decide(b, opened.approvalId, second)).json()).toMatchObject({ status: 'waiting' });
    await stream.until('data: ');
    expect(stream.text()).toContain(`"approvalId":"${opened.approvalId}"`);
    await stream.cancel();
    expect(await (await decide(a, opened.approvalId, first)).json()).toMatchObject({ status: 'approved' });

    for (const round of [1, 2, 3]) {
      const chatId = `pair-${round}`;
      const reader = await postChat(a.url, singleMessageChat(chatId, 'create a ticket: big refund'), {
        cookie: requester,
      });
      const { approvalId } = await reader.until('tool-approval-request');
      const answers = await Promise.all([decide(a, approvalId, first), decide(b, approvalId, second)]);
      const statuses = await Promise.all(
        answers.map(async (answer) => ((await answer.json()) as { status: string }).status),
      );
      expect(statuses.sort()).toEqual(['approved', 'waiting']);
      await expect
        .poll(
          async () => JSON.stringify((await getJson(a, `/api/chats/${chatId}`, requester)).messages.at(-1)),
          {
            timeout: 20_000,
          },
        )
        .toMatch(/TK-\d{6}[\s\S]*TK-\d{6}/);
    }
    const tickets = (await getJson(b, '/api/tickets', requester)) as { title: string }[];
    expect(tickets.map((ticket) => ticket.title)).toEqual([
      'big refund',
      'big refund',
      'big refund',
      'big refund',
    ]);
  }, 90_000); // Two servers starting at once: more than the default 30 s on 2 busy cores.
});
