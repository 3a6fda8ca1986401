import { NextRequest } from 'next/server';
import { beforeEach, describe, expect, it } from 'vitest';
import { GET as resume } from '@/app/api/chat/[id]/stream/route';
import { POST as approve } from '@/app/api/chat/approve/route';
import { POST as complete } from '@/app/api/chat/complete/route';
import { POST as chat } from '@/app/api/chat/route';
import { GET as metrics } from '@/app/api/metrics/route';
import { runningTurns } from '@/lib/chat/turn-streams';
import { ChatStreamReader, jsonRequest, userMessage } from '../support/chat-client';
import { configureServerOn } from '../support/server-env';
import { databaseEngines } from '../support/test-database';

const token = 'metrics-token-for-tests-0123456789';

function metricsRequest(authorization?: string): NextRequest {
  const headers = new Headers(authorization === undefined ? {} : { authorization });
  return new NextRequest(new URL('/api/metrics', 'http://localhost'), { headers });
}

async function scrape(): Promise<string> {
  const response = await metrics(metricsRequest(`Bearer ${token}`));
  expect(response.status).toBe(200);
  return response.text();
}

/** One sample's value in the Prometheus text, 0 when the series has none yet. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const labelText = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .join(',');
  const prefix = labelText === '' ? `${name} ` : `${name}{${labelText}} `;
  const line = text.split('\n').find((candidate) => candidate.startsWith(prefix));
  return line === undefined ? 0 : Number(line.slice(prefix.length));
}

/** The samples a test looks at, read in one scrape. */
async function readings() {
  const text = await scrape();
  const calls = (tool: string, outcome: string) =>
    sample(text, 'toolgate_tool_calls_total', { tool, outcome });
  return {
    executed: calls('createTicket', 'executed'),
    replayed: calls('createTicket', 'replayed'),
    denied: calls('createTicket', 'denied'),
    pending: sample(text, 'toolgate_approvals_pending'),
    waits: sample(text, 'toolgate_approval_wait_seconds_count'),
    turns: sample(text, 'toolgate_turn_seconds_count'),
  };
}

type Readings = Awaited<ReturnType<typeof readings>>;

/** How each reading moved since `before`. */
async function changeSince(before: Readings): Promise<Readings> {
  const after = await readings();
  return Object.fromEntries(
    Object.entries(after).map(([key, value]) => [key, value - before[key as keyof Readings]]),
  ) as Readings;
}

const params = (id: string) => ({ params: Promise.resolve({ id }) });

async function send(chatId: string, text: string) {
  const response = await chat(jsonRequest('/api/chat', { id: chatId, message: userMessage(text) }));
  expect(response.status).toBe(200);
  return new ChatStreamReader(response);
}

async function decide(approvalId: string, sessionId: string, approved: boolean) {
  const response = await approve(jsonRequest('/api/chat/approve', { approvalId, sessionId, approved }));
  expect(response.status).toBe(200);
}

async function completeTurn(chatId: string, text: string): Promise<void> {
  const response = await complete(
    jsonRequest('/api/chat/complete', { id: chatId, messages: [userMessage(text)] }),
  );
  expect(response.status).toBe(200);
  await response.json();
}

describe('GET /api/metrics', () => {
  it('does not exist (404) while TOOLGATE_METRICS_TOKEN is unset', async () => {
    await configureServerOn('sqlite');
    const response = await metrics(metricsRequest(`Bearer ${token}`));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: expect.any(String) });
  });

  it.each([
    ['no Authorization header', undefined],
    ['a wrong token', 'Bearer metrics-token-for-tests-0123456780'],
    ['a token of another length', 'Bearer short'],
    ['the token without the Bearer scheme', token],
    ['an empty bearer', 'Bearer '],
  ])('answers 401 with an error for %s', async (_name, authorization) => {
    await configureServerOn('sqlite', { TOOLGATE_METRICS_TOKEN: token });
    const response = await metrics(metricsRequest(authorization));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: expect.any(String) });
  });

  it('serves the Prometheus text format with every series', async () => {
    await configureServerOn('sqlite', { TOOLGATE_METRICS_TOKEN: token });
    const response = await metrics(metricsRequest(`Bearer ${token}`));
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    for (const [name, type] of [
      ['toolgate_tool_calls_total', 'counter'],
      ['toolgate_approvals_pending', 'gauge'],
      ['toolgate_approval_wait_seconds', 'histogram'],
      ['toolgate_turn_seconds', 'histogram'],
    ])
      expect(text).toContain(`# TYPE ${name} ${type}\n`);
    expect(text).toMatch(/toolgate_turn_seconds_bucket\{le="\+Inf"\} \d+\n/);
  });
});

describe.each(databaseEngines)('metrics on %s', (engine) => {
  describe('without approvals', () => {
    beforeEach(async () => {
      await configureServerOn(engine, { TOOLGATE_METRICS_TOKEN: token, AGENT_CONFIRM_TOOLS: '' });
    });

    it('counts an executed and then a replayed call, and two turns', async () => {
      const before = await readings();
      await completeTurn('metrics-replay', 'create a ticket: printer broken');
      await completeTurn('metrics-replay', 'create a ticket: printer broken');
      expect(await changeSince(before)).toEqual({
        executed: 1,
        replayed: 1,
        denied: 0,
        pending: 0,
        waits: 0,
        turns: 2,
      });
    });
  });

  describe('live approvals', () => {
    beforeEach(async () => {
      await configureServerOn(engine, { TOOLGATE_METRICS_TOKEN: token });
    });

    it('shows a waiting card as pending, then counts its wait and the outcome once decided', async () => {
      const before = await readings();
      const allowed = await send('metrics-allow', 'create a ticket: projector silent');
      const card = await allowed.until('tool-approval-request');
      expect((await changeSince(before)).pending).toBe(1);
      await decide(card.approvalId, 'metrics-allow', true);
      await allowed.rest();

      const denied = await send('metrics-deny', 'create a ticket: keep this one');
      await decide((await denied.until('tool-approval-request')).approvalId, 'metrics-deny', false);
      await denied.rest();
      await expect.poll(async () => (await changeSince(before)).turns).toBe(2);
      expect(await changeSince(before)).toEqual({
        executed: 1,
        replayed: 0,
        denied: 1,
        pending: 0,
        waits: 2,
        turns: 2,
      });
    });
  });

  describe('parked approvals', () => {
    beforeEach(async () => {
      await configureServerOn(engine, { TOOLGATE_METRICS_TOKEN: token, TOOLGATE_PARK_AFTER_MS: '50' });
    });

    async function parkedCard(chatId: string, text: string) {
      const reader = await send(chatId, text);
      const request = await reader.until('tool-approval-request');
      await reader.leave();
      await expect.poll(() => runningTurns().has(chatId)).toBe(false);
      return request;
    }

    it('counts a parked call once, when a decision carries it out or denies it', async () => {
      const before = await readings();
      const allowed = await parkedCard('metrics-parked-allow', 'create a ticket: nobody watches');
      const denied = await parkedCard('metrics-parked-deny', 'create a ticket: nobody watches either');
      expect(await changeSince(before)).toMatchObject({ pending: 2, waits: 0, executed: 0, turns: 2 });

      await decide(allowed.approvalId, 'metrics-parked-allow', true);
      await decide(denied.approvalId, 'metrics-parked-deny', false);
      for (const chatId of ['metrics-parked-allow', 'metrics-parked-deny']) {
        const continued = await resume(
          jsonRequest(`/api/chat/${chatId}/stream`, undefined, { method: 'GET' }),
          params(chatId),
        );
        if (continued.status === 200) await new ChatStreamReader(continued).rest();
      }
      // Each continuation's reply is a turn of its own.
      await expect.poll(async () => (await changeSince(before)).turns).toBe(4);
      expect(await changeSince(before)).toEqual({
        executed: 1,
        replayed: 0,
        denied: 1,
        pending: 0,
        waits: 2,
        turns: 4,
      });
    });

    it('after a restart, reads the pending gauge from the database while counters start again', async () => {
      const before = await readings();
      await parkedCard('metrics-restart', 'create a ticket: across a restart');
      // The turn is counted as its stream ends, which can come after it leaves the running turns:
      // the old process has counted it before it goes away.
      await expect.poll(async () => (await readings()).turns).toBe(before.turns + 1);
      // What a new process has: no counts of its own yet.
      delete (globalThis as Record<string, unknown>).__toolgateMetrics;
      expect(await readings()).toEqual({
        executed: 0,
        replayed: 0,
        denied: 0,
        pending: 1,
        waits: 0,
        turns: 0,
      });
    });
  });
});
