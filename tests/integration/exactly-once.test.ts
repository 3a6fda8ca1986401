import type { UIMessageChunk } from 'ai';
import { createClient } from 'redis';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { userMessage } from '../support/chat-client';
import { guestCookie, postChat, postDecision } from '../support/http-chat';
import { type NextServer, startNextServer } from '../support/next-server';
import { createEmptyDatabase, type EmptyDatabase } from '../support/test-database';

/*
 * A write's effect and the record of its result commit in one transaction, so a repeat
 * in the same chat replays the record even when the idempotency store never learnt of
 * the call (the process died between the commit and the store's write) or forgot it
 * (Redis flushed). Production servers, real databases, a real Redis; nothing mocked.
 */

type Setup = { engine: 'sqlite' | 'postgres'; store: 'memory' | 'redis' };

const setups: Setup[] = [
  { engine: 'sqlite', store: 'memory' },
  { engine: 'sqlite', store: 'redis' },
  { engine: 'postgres', store: 'memory' },
  { engine: 'postgres', store: 'redis' },
];

const servers: NextServer[] = [];
const databases: EmptyDatabase[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

afterAll(async () => {
  await Promise.all(databases.splice(0).map((database) => database.drop()));
});

async function environmentFor({ engine, store }: Setup, redisUrl = inject('redisUrl')) {
  const database = await createEmptyDatabase(engine);
  databases.push(database);
  const environment: Record<string, string> = {
    AI_MODEL: 'offline',
    OFFLINE_MODEL_DELAY_MS: '0',
    // No card: the write runs as soon as the model calls it.
    AGENT_CONFIRM_TOOLS: '',
  };
  for (const [key, value] of Object.entries(database.environment)) {
    if (value !== undefined) environment[key] = value;
  }
  if (store === 'redis') environment.REDIS_URL = redisUrl;
  return environment;
}

async function start(environment: Record<string, string>, port?: number) {
  const server = await startNextServer(environment, port);
  servers.push(server);
  return server;
}

function outputOf(chunks: UIMessageChunk[]): Record<string, unknown> | undefined {
  const chunk = chunks.find((candidate) => candidate.type === 'tool-output-available');
  return chunk?.type === 'tool-output-available' ? (chunk.output as Record<string, unknown>) : undefined;
}

async function ticketsOf(server: NextServer, cookie: string) {
  const response = await fetch(`${server.url}/api/tickets`, { headers: { cookie } });
  return (await response.json()) as { ticketId: string; title: string }[];
}

describe.each(setups)('a write on $engine with the $store store', (setup) => {
  it('replays the committed ticket after the process died between the commit and the store', async () => {
    const environment = await environmentFor(setup);
    const faulty = await start({
      ...environment,
      TOOLGATE_FAULT: 'crash-after-effect',
      TOOLGATE_TESTING: '1',
    });
    const cookie = await guestCookie(faulty.url);
    const chatId = `crash-${setup.engine}-${setup.store}-${Date.now()}`;
    const command = '/tool createTicket {"title":"printer on fire"}';
    const exited = new Promise((resolve) => faulty.process.once('exit', resolve));

    // The process dies mid-turn: the stream breaks off or never starts.
    await postChat(faulty.url, { id: chatId, messages: [userMessage(command)] }, { cookie })
      .then((reader) => reader.rest())
      .catch(() => undefined);
    await exited;

    const restarted = await start(environment, faulty.port);
    const committed = await ticketsOf(restarted, cookie);
    expect(committed.map((ticket) => ticket.title)).toEqual(['printer on fire']);

    // The same request again (a retry): the record answers, no second ticket.
    const again = await postChat(restarted.url, { id: chatId, messages: [userMessage(command)] }, { cookie });
    const output = outputOf(await again.rest());
    expect(output).toMatchObject({
      ticketId: committed[0].ticketId,
      title: 'printer on fire',
      status: 'open',
    });
    expect((await ticketsOf(restarted, cookie)).map((ticket) => ticket.ticketId)).toEqual([
      committed[0].ticketId,
    ]);
  }, 90_000);
});

describe('a write behind an approval card', () => {
  it('asks again after the crash, and the allowed repeat replays the committed ticket', async () => {
    const environment = await environmentFor({ engine: 'sqlite', store: 'memory' });
    delete environment.AGENT_CONFIRM_TOOLS;
    const faulty = await start({
      ...environment,
      TOOLGATE_FAULT: 'crash-after-effect',
      TOOLGATE_TESTING: '1',
    });
    const cookie = await guestCookie(faulty.url);
    const chatId = `crash-approval-${Date.now()}`;
    const command = '/tool createTicket {"title":"allowed, then the lights went out"}';
    const exited = new Promise((resolve) => faulty.process.once('exit', resolve));

    const first = await postChat(faulty.url, { id: chatId, messages: [userMessage(command)] }, { cookie });
    const asked = await first.until('tool-approval-request');
    await postDecision(
      faulty.url,
      { approvalId: asked.approvalId, sessionId: chatId, approved: true },
      { cookie },
    ).catch(() => undefined);
    await first.rest().catch(() => undefined);
    await exited;

    const restarted = await start(environment, faulty.port);
    const committed = await ticketsOf(restarted, cookie);
    expect(committed).toHaveLength(1);
    // Approval sits outside idempotency: the repeat shows a card of its own.
    const again = await postChat(restarted.url, { id: chatId, messages: [userMessage(command)] }, { cookie });
    const askedAgain = await again.until('tool-approval-request');
    expect(askedAgain.approvalId).not.toBe(asked.approvalId);
    const decision = await postDecision(
      restarted.url,
      { approvalId: askedAgain.approvalId, sessionId: chatId, approved: true },
      { cookie },
    );
    expect(decision.status).toBe(200);
    expect(outputOf(await again.rest())).toMatchObject({ ticketId: committed[0].ticketId });
    expect(await ticketsOf(restarted, cookie)).toHaveLength(1);
  }, 90_000);
});

describe('a flushed Redis', () => {
  it('still gives one ticket for two identical calls in one chat', async () => {
    // A database of its own on the run's Redis, so flushing it touches no other suite.
    const url = new URL(inject('redisUrl'));
    url.pathname = '/5';
    const environment = await environmentFor({ engine: 'sqlite', store: 'redis' }, url.toString());
    const server = await start(environment);
    const cookie = await guestCookie(server.url);
    const chatId = `flush-${Date.now()}`;
    const command = '/tool createTicket {"title":"flushed away"}';

    const first = outputOf(
      await (await postChat(server.url, { id: chatId, messages: [userMessage(command)] }, { cookie })).rest(),
    );
    const redis = createClient({ url: url.toString() });
    await redis.connect();
    try {
      expect(await redis.dbSize()).toBeGreaterThan(0);
      await redis.flushDb();
    } finally {
      await redis.close();
    }
    const second = outputOf(
      await (await postChat(server.url, { id: chatId, messages: [userMessage(command)] }, { cookie })).rest(),
    );

    expect(second).toEqual(first);
    expect((await ticketsOf(server, cookie)).map((ticket) => ticket.title)).toEqual(['flushed away']);
  }, 60_000);
});
