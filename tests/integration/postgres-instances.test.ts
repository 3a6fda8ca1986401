import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  postChat,
  postDecision,
  sessionFetch,
  setSessionCookie,
  signInAsGuest,
  singleMessageChat,
} from '../support/http-chat';
import { type NextServer, startNextServer } from '../support/next-server';
import { type PostgresCluster, startPostgresCluster } from '../support/postgres-cluster';

type Ticket = { ticketId: string; title: string };

/*
 * Two production servers on one Postgres and one Redis, each with an SQLite path of its
 * own that must be ignored: what one instance writes, the other reads. The cluster is
 * this suite's own, so stopping it for the outage test disturbs no other suite.
 */
describe('two instances on one Postgres', () => {
  let cluster: PostgresCluster;
  let environment: Record<string, string>;
  let servers: NextServer[] = [];

  const ownPath = () => join(mkdtempSync(join(tmpdir(), 'toolgate-pg-instance-')), 'ignored.db');
  const startPair = async (extra: Record<string, string> = {}) => {
    const pair = await Promise.all([
      startNextServer({ ...environment, ...extra, DATABASE_PATH: ownPath() }),
      startNextServer({ ...environment, ...extra, DATABASE_PATH: ownPath() }),
    ]);
    servers.push(...pair);
    await signInAsGuest(pair[0].url);
    return pair;
  };
  const stopAll = async () => {
    await Promise.all(servers.map((server) => server.stop()));
    servers = [];
  };
  const tickets = async (server: NextServer): Promise<Ticket[]> =>
    (await sessionFetch(`${server.url}/api/tickets`)).json() as Promise<Ticket[]>;

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('CREATE DATABASE toolgate');
    await admin.end();
    const url = new URL(cluster.url);
    url.pathname = '/toolgate';
    environment = {
      DATABASE_URL: url.toString(),
      REDIS_URL: inject('redisUrl'),
      AI_MODEL: 'offline',
      OFFLINE_MODEL_DELAY_MS: '0',
      // Fail fast while Postgres is down instead of waiting out the default timeouts.
      DATABASE_STATEMENT_TIMEOUT_MS: '3000',
    };
  }, 120_000);

  afterAll(async () => {
    await stopAll();
    cluster?.destroy();
  });

  it('lists on B a ticket allowed on A, continues A’s chat on B, and keeps both after a restart of both', async () => {
    const [a, b] = await startPair();
    const owner = await signInAsGuest(a.url);
    const chatId = `pg-chat-${Date.now()}`;
    const reader = await postChat(a.url, singleMessageChat(chatId, 'create a ticket: printer on fire'));
    const request = await reader.until('tool-approval-request');
    const decision = await postDecision(b.url, {
      approvalId: request.approvalId,
      sessionId: chatId,
      approved: true,
    });
    expect(await decision.json()).toMatchObject({ status: 'approved' });
    const output = await reader.until('tool-output-available');
    await reader.rest();
    const ticketId = (output.output as Ticket).ticketId;
    expect((await tickets(b)).map((ticket) => ticket.ticketId)).toContain(ticketId);

    const saved = await (await sessionFetch(`${b.url}/api/chats/${chatId}`)).json();
    const next = await postChat(b.url, {
      id: chatId,
      messages: [...saved.messages, ...singleMessageChat(chatId, 'list my todos').messages],
    });
    await next.rest();
    const continued = await (await sessionFetch(`${a.url}/api/chats/${chatId}`)).json();
    expect(continued.messages).toHaveLength(4);

    await stopAll();
    const [c, d] = await startPair();
    setSessionCookie(owner);
    expect((await tickets(c)).map((ticket) => ticket.ticketId)).toContain(ticketId);
    expect((await (await sessionFetch(`${d.url}/api/chats/${chatId}`)).json()).messages).toHaveLength(4);
    await stopAll();
  });

  it('gives tickets created at once on both instances distinct numbers', async () => {
    const [a, b] = await startPair({ AGENT_CONFIRM_TOOLS: '' });
    const before = (await tickets(a)).length;
    const created = await Promise.all(
      Array.from({ length: 30 }, async (_, index) => {
        const server = index % 2 === 0 ? a : b;
        const response = await sessionFetch(`${server.url}/api/chat/complete`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(
            singleMessageChat(`pg-burst-${Date.now()}-${index}`, `create a ticket: burst ${index}`),
          ),
        });
        expect(response.status).toBe(200);
        const body = (await response.json()) as { toolResults: { output: Ticket }[] };
        return body.toolResults[0].output.ticketId;
      }),
    );
    expect(new Set(created).size).toBe(30);
    expect((await tickets(b)).length).toBe(before + 30);
    await stopAll();
  });

  it('answers 503 while Postgres is down and recovers without a restart when it is back', async () => {
    const [a] = await startPair({ AGENT_CONFIRM_TOOLS: '' });
    expect((await sessionFetch(`${a.url}/api/tickets`)).status).toBe(200);
    cluster.pause();
    try {
      const during = await sessionFetch(`${a.url}/api/tickets`);
      expect(during.status).toBe(503);
      expect(await during.json()).toEqual({ error: expect.stringMatching(/database is unavailable/) });
      const chat = await sessionFetch(`${a.url}/api/chat/complete`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(singleMessageChat(`pg-down-${Date.now()}`, 'create a ticket: while down')),
      });
      expect(chat.status).toBe(503);
    } finally {
      cluster.resume();
    }
    const after = await sessionFetch(`${a.url}/api/tickets`);
    expect(after.status).toBe(200);
    const titles = ((await after.json()) as Ticket[]).map((ticket) => ticket.title);
    expect(titles).not.toContain('while down');
    await stopAll();
  });
});
