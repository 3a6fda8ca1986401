import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { postChat, postDecision, sessionFetch, signInAsGuest, singleMessageChat } from '../support/http-chat';
import { type NextServer, startNextServer } from '../support/next-server';

/*
 * Two production servers share one Redis and one SQLite file, as two instances
 * behind a load balancer would. Nothing is mocked: the decision travels through
 * Redis pub/sub from the instance that received it to the one holding the call.
 */
describe('two instances behind one Redis', () => {
  const servers: NextServer[] = [];

  async function startPair(environment: Record<string, string>) {
    const pair = await Promise.all([startNextServer(environment), startNextServer(environment)]);
    servers.push(...pair);
    return pair;
  }

  function sharedEnvironment(extra: Record<string, string> = {}) {
    const databasePath = join(mkdtempSync(join(tmpdir(), 'toolgate-two-')), 'toolgate.db');
    return {
      REDIS_URL: inject('redisUrl'),
      DATABASE_PATH: databasePath,
      AI_MODEL: 'offline',
      OFFLINE_MODEL_DELAY_MS: '0',
      ...extra,
    };
  }

  let approvalPair: NextServer[] = [];
  let openPair: NextServer[] = [];

  beforeAll(async () => {
    [approvalPair, openPair] = await Promise.all([
      startPair(sharedEnvironment()),
      startPair(sharedEnvironment({ AGENT_CONFIRM_TOOLS: '' })),
    ]);
    // One guest, signed in on A (once: sign-ins are rate limited per address); B reads the
    // same session from the shared database.
    await signInAsGuest(approvalPair[0].url);
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
  });

  it('wakes the call held on A with a decision taken on B', async () => {
    const [a, b] = approvalPair;
    const latencies: number[] = [];
    // Three rounds: the first one also pays for B's first Redis connection.
    for (const round of [1, 2, 3]) {
      const chatId = `cross-${round}-${Date.now()}`;
      const reader = await postChat(
        a.url,
        singleMessageChat(chatId, `create a ticket: cross instance ${round}`),
      );
      const request = await reader.until('tool-approval-request');

      const decidedAt = performance.now();
      const decision = await postDecision(b.url, {
        approvalId: request.approvalId,
        sessionId: chatId,
        approved: true,
      });
      expect(await decision.json()).toMatchObject({ status: 'approved' });
      const output = await reader.until('tool-output-available');
      latencies.push(performance.now() - decidedAt);

      expect(output.output).toMatchObject({ ticketId: expect.stringMatching(/^TK-\d{6}$/) });
      await reader.rest();
    }
    console.log(
      `decision on B → tool output on A: ${latencies.map((ms) => `${ms.toFixed(1)} ms`).join(', ')}`,
    );
    const tickets = await (await sessionFetch(`${b.url}/api/tickets`)).json();
    expect(tickets).toHaveLength(3);
  });

  it('answers a decision for another session on B with 404 and leaves the call on A pending', async () => {
    const [a, b] = approvalPair;
    const chatId = `cross-wrong-${Date.now()}`;
    const reader = await postChat(a.url, singleMessageChat(chatId, 'create a ticket: wrong session'));
    const request = await reader.until('tool-approval-request');
    const wrong = await postDecision(b.url, {
      approvalId: request.approvalId,
      sessionId: 'other',
      approved: true,
    });
    expect(wrong.status).toBe(404);
    const right = await postDecision(b.url, {
      approvalId: request.approvalId,
      sessionId: chatId,
      approved: false,
    });
    expect(await right.json()).toMatchObject({ status: 'denied' });
    const denial = await reader.until('tool-approval-response');
    expect(denial).toMatchObject({ approved: false });
    await reader.until('tool-output-denied');
    await reader.rest();
  });

  it('stops the turn running on A when Stop is pressed on B: the model ends, the card is saved cancelled', async () => {
    const [a, b] = approvalPair;
    const chatId = `cross-stop-${Date.now()}`;
    const reader = await postChat(a.url, singleMessageChat(chatId, 'create a ticket: stop me from B'));
    const request = await reader.until('tool-approval-request');
    const stopped = await sessionFetch(`${b.url}/api/chat/${chatId}/stop`, { method: 'POST' });
    expect(await stopped.json()).toEqual({ stopped: true });
    const chunks = await reader.rest();
    // A's model was stopped: its stream ends with the SDK's abort, and no reply follows the card.
    expect(chunks.at(-1)?.type).toBe('abort');
    expect(chunks.some((chunk) => chunk.type === 'text-delta')).toBe(false);
    // B answered once A had saved the settled message.
    const saved = (await (await sessionFetch(`${b.url}/api/chats/${chatId}`)).json()) as {
      messages: { parts: { type: string; state?: string; approval?: { reason?: string } }[] }[];
      activeStream: unknown;
    };
    expect(saved.activeStream).toBeNull();
    const part = saved.messages.at(-1)?.parts.find((candidate) => candidate.type === 'tool-createTicket');
    expect(part).toMatchObject({ state: 'output-denied' });
    expect(part?.approval?.reason).toMatch(/^aborted:/);
    const late = await postDecision(b.url, {
      approvalId: request.approvalId,
      sessionId: chatId,
      approved: true,
    });
    expect(late.status).toBe(404);
  });

  it('creates one ticket when the same request reaches A and B at once', async () => {
    const [a, b] = openPair;
    await signInAsGuest(a.url);
    const chatId = `race-${Date.now()}`;
    const body = singleMessageChat(chatId, 'create a ticket: sent twice at once');
    const readers = await Promise.all([postChat(a.url, body), postChat(b.url, body)]);
    const outputs = await Promise.all(readers.map((reader) => reader.until('tool-output-available')));
    await Promise.all(readers.map((reader) => reader.rest()));

    expect(outputs[0].output).toEqual(outputs[1].output);
    const tickets = await (await sessionFetch(`${a.url}/api/tickets`)).json();
    expect(tickets).toHaveLength(1);
  });
});
