import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { GET as activity } from '@/app/api/activity/route';
import { POST as approve } from '@/app/api/chat/approve/route';
import { POST as chat } from '@/app/api/chat/route';
import { GET as tickets } from '@/app/api/tickets/route';
import { openDatabase } from '@/lib/db/open-database';
import type { PolicyLimit } from '@/lib/policy';
import { createDatabaseQuotaCounter, createRedisQuotaCounter, type QuotaCounter } from '@/lib/policy';
import type { RedisClient } from '../../packages/engine/src/stores/redis-client';
import { signUpWithRole, writePolicyFile } from '../support/approval-policy';
import {
  ChatStreamReader,
  defaultTestCookie,
  getRequest,
  jsonRequest,
  setDefaultTestCookie,
  userMessage,
} from '../support/chat-client';
import { configureServerOn } from '../support/server-env';
import { createEmptyDatabase, databaseEngines } from '../support/test-database';

const backends = ['redis', ...databaseEngines] as const;
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Two counters on one store, as two instances of the app would hold, sharing a clock. */
async function twoInstances(backend: (typeof backends)[number], now: () => number): Promise<QuotaCounter[]> {
  if (backend === 'redis') {
    const clients = await Promise.all(
      [0, 1].map(async () => {
        const client = createClient({ url: inject('redisUrl') }) as RedisClient;
        await client.connect();
        cleanups.push(() => client.close());
        return client;
      }),
    );
    return clients.map((client) => createRedisQuotaCounter({ client, now }));
  }
  const target = await createEmptyDatabase(backend);
  const first = await openDatabase({ url: target.url, path: target.path });
  // SQLite's driver is synchronous: two handles in one process would block each other's lock.
  const second = backend === 'postgres' ? await openDatabase({ url: target.url, path: target.path }) : first;
  cleanups.push(async () => {
    await first.destroy();
    if (second !== first) await second.destroy();
    await target.drop();
  });
  return [first, second].map((db) => createDatabaseQuotaCounter({ db, now }));
}

describe.each(backends)('the quota counter on %s', (backend) => {
  it('counts exactly the quota of calls racing on two instances, and frees places as the window moves', async () => {
    let clock = 1_000_000;
    const [first, second] = await twoInstances(backend, () => clock);
    const limit: PolicyLimit = { max: 7, windowMs: 60_000, per: 'all' };
    const key = `rule-${randomUUID()}`;
    expect(await first?.peek(key, limit)).toEqual({ ok: true });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        ((index % 2 === 0 ? first : second) as QuotaCounter).take(key, limit),
      ),
    );
    expect(answers.filter((answer) => answer.ok)).toHaveLength(7);
    // Every refusal says when a place frees: when the first call leaves the window.
    for (const answer of answers.filter((answer) => !answer.ok))
      expect(answer).toEqual({ ok: false, retryAfterMs: 60_000 });
    expect(await second?.peek(key, limit)).toEqual({ ok: false, retryAfterMs: 60_000 });
    clock += 59_999;
    expect(await first?.peek(key, limit)).toEqual({ ok: false, retryAfterMs: 1 });
    clock += 1;
    expect(await first?.take(key, limit)).toEqual({ ok: true });
    // Another key (another user, another chat) counts apart.
    expect(await second?.take(`${key}-other`, limit)).toEqual({ ok: true });
  });
});

async function send(chatId: string, text: string, cookie = defaultTestCookie()) {
  const response = await chat(
    jsonRequest('/api/chat', { id: chatId, message: userMessage(text) }, { cookie }),
  );
  expect(response.status).toBe(200);
  const reader = new ChatStreamReader(response);
  const chunks = await reader.rest();
  return { reader, chunks };
}

async function ticketTitles(cookie = defaultTestCookie()): Promise<string[]> {
  const rows = (await (await tickets(getRequest('/api/tickets', { cookie }))).json()) as { title: string }[];
  return rows.map((row) => row.title).sort();
}

async function auditRows(cookie = defaultTestCookie()) {
  const response = await activity(getRequest('/api/activity', { cookie }));
  return (await response.json()) as { outcome: string; detail: Record<string, unknown> | null }[];
}

const outputOf = (chunks: { type: string }[]) =>
  (chunks.find((chunk) => chunk.type === 'tool-output-available') as { output?: unknown } | undefined)
    ?.output;
const asked = (chunks: { type: string }[]) => chunks.some((chunk) => chunk.type === 'tool-approval-request');

describe.each(databaseEngines)('a rule with a quota on %s', (engine) => {
  beforeEach(async () => {
    const policy = writePolicyFile({
      rules: [
        {
          tool: 'createTicket',
          when: { title: { eq: 'asked' } },
          approvers: ['requester'],
          limit: { max: 1, windowMs: 3_600_000, per: 'chat' },
        },
        { tool: 'createTicket', limit: { max: 2, windowMs: 3_600_000, per: 'user' } },
      ],
    });
    await configureServerOn(engine, { TOOLGATE_POLICY: policy, TOOLGATE_PARK_AFTER_MS: '60000' });
    setDefaultTestCookie((await signUpWithRole(`quota-${engine}@example.com`)).cookie);
  });

  it('runs calls without a card within the quota, then refuses without a card with the wait, audited', async () => {
    for (const title of ['one', 'two']) {
      const { chunks } = await send(`chat-${title}`, `create a ticket: ${title}`);
      expect(asked(chunks)).toBe(false);
    }
    const { chunks, reader } = await send('chat-three', 'create a ticket: three');
    expect(asked(chunks)).toBe(false);
    const output = outputOf(chunks) as { denied?: boolean; reason?: string; retryAfterMs?: number };
    expect(output).toMatchObject({ denied: true, reason: 'quota' });
    expect(output.retryAfterMs).toBeGreaterThan(3_500_000);
    expect(output.retryAfterMs).toBeLessThanOrEqual(3_600_000);
    expect(reader.text()).toContain('limit');
    expect(await ticketTitles()).toEqual(['one', 'two']);
    await expect.poll(async () => (await auditRows())[0]?.outcome).toBe('denied');
    expect((await auditRows())[0]?.detail).toMatchObject({
      policy: true,
      quota: { retryAfterMs: output.retryAfterMs },
      rule: 'rules[1]: createTicket',
    });
    // Per user: someone else still has their own quota.
    const other = (await signUpWithRole(`quota-other-${engine}@example.com`)).cookie;
    const { chunks: theirs } = await send('chat-theirs', 'create a ticket: theirs', other);
    expect(outputOf(theirs)).toMatchObject({ title: 'theirs' });
  });

  it('checks the quota before a card is shown: a call past it asks nobody', async () => {
    const response = await chat(
      jsonRequest('/api/chat', { id: 'chat-asked', message: userMessage('create a ticket: asked') }),
    );
    const reader = new ChatStreamReader(response);
    const request = await reader.until('tool-approval-request');
    const decided = await approve(
      jsonRequest('/api/chat/approve', {
        approvalId: request.approvalId,
        approved: true,
        chatId: 'chat-asked',
      }),
    );
    expect(decided.status).toBe(200);
    await reader.rest();
    expect(await ticketTitles()).toEqual(['asked']);
    const again = await send('chat-asked', 'create a ticket: asked');
    expect(asked(again.chunks)).toBe(false);
    expect(outputOf(again.chunks)).toMatchObject({ denied: true, reason: 'quota' });
  });
});
