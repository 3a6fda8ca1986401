import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UIMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ChatStreamReader, userMessage } from '../support/chat-client';
import { postChat, postDecision, sessionFetch, signInAsGuest, singleMessageChat } from '../support/http-chat';
import { type NextServer, startNextServer } from '../support/next-server';

/*
 * Durable approvals against real `next start` processes: what a person decides must
 * count even when the process that asked is gone, must count once when it is sent
 * many times, and a chat kept on the server must not lose its history as it grows.
 */

function freshDatabasePath(): string {
  return join(mkdtempSync(join(tmpdir(), 'toolgate-durable-')), 'toolgate.db');
}

const baseEnvironment = { AI_MODEL: 'offline', OFFLINE_MODEL_DELAY_MS: '0' };

async function savedMessages(baseUrl: string, chatId: string): Promise<UIMessage[]> {
  const response = await sessionFetch(`${baseUrl}/api/chats/${chatId}`);
  if (response.status !== 200) return [];
  return ((await response.json()) as { messages: UIMessage[] }).messages;
}

async function ticketCount(baseUrl: string): Promise<number> {
  return ((await (await sessionFetch(`${baseUrl}/api/tickets`)).json()) as unknown[]).length;
}

describe('an instance lost while a card waits', () => {
  let a: NextServer;
  let b: NextServer;

  beforeAll(async () => {
    // Two instances behind one Redis and one SQLite file, as behind a load balancer.
    const environment = {
      ...baseEnvironment,
      REDIS_URL: inject('redisUrl'),
      DATABASE_PATH: freshDatabasePath(),
    };
    [a, b] = await Promise.all([startNextServer(environment), startNextServer(environment)]);
    await signInAsGuest(a.url);
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('lets the other instance take the allow: one ticket, and the reply is saved in the chat', async () => {
    const chatId = `lost-instance-${Date.now()}`;
    const reader = await postChat(a.url, singleMessageChat(chatId, 'create a ticket: instance lost'));
    const request = await reader.until('tool-approval-request');
    // The card is saved before A dies, as the page reloaded on B would show it.
    await expect
      .poll(async () => JSON.stringify((await savedMessages(b.url, chatId)).at(-1)), { timeout: 10_000 })
      .toContain(request.approvalId);

    a.process.kill('SIGKILL');
    await new Promise((resolve) => a.process.once('exit', resolve));

    const decision = await postDecision(b.url, {
      approvalId: request.approvalId,
      sessionId: chatId,
      approved: true,
    });
    expect(decision.status).toBe(200);
    expect(await decision.json()).toMatchObject({ status: 'approved' });

    // The tool's output and the model's reply both name the ticket.
    await expect
      .poll(async () => JSON.stringify((await savedMessages(b.url, chatId)).at(-1)), { timeout: 30_000 })
      .toMatch(/TK-\d{6}[\s\S]*TK-\d{6}/);
    expect(await ticketCount(b.url)).toBe(1);
    const again = await postDecision(b.url, {
      approvalId: request.approvalId,
      sessionId: chatId,
      approved: true,
    });
    expect(again.status).toBe(404);
    expect(await ticketCount(b.url)).toBe(1);
  });
});

describe('one server', () => {
  let server: NextServer;
  let openServer: NextServer;

  beforeAll(async () => {
    [server, openServer] = await Promise.all([
      startNextServer({ ...baseEnvironment, DATABASE_PATH: freshDatabasePath() }),
      // No approvals: the long chat below measures history, not waiting.
      startNextServer({ ...baseEnvironment, DATABASE_PATH: freshDatabasePath(), AGENT_CONFIRM_TOOLS: '' }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([server?.stop(), openServer?.stop()]);
  });

  it('answers one of ten concurrent allows with 200 and the rest with 404, and creates one ticket', async () => {
    await signInAsGuest(server.url);
    const chatId = `ten-allows-${Date.now()}`;
    const reader = await postChat(server.url, singleMessageChat(chatId, 'create a ticket: ten clicks'));
    const request = await reader.until('tool-approval-request');
    const statuses = await Promise.all(
      Array.from(
        { length: 10 },
        async () =>
          (
            await postDecision(server.url, {
              approvalId: request.approvalId,
              sessionId: chatId,
              approved: true,
            })
          ).status,
      ),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 404)).toHaveLength(9);
    await reader.rest();
    expect(reader.text()).toMatch(/TK-\d{6}/);
    expect(await ticketCount(server.url)).toBe(1);
  });

  it('keeps all 600 messages of a 300-turn chat sent one message at a time, and still answers', async () => {
    await signInAsGuest(openServer.url);
    const chatId = `long-chat-${Date.now()}`;
    const turns = 300;
    const startedAt = performance.now();
    let lastReply = '';
    for (let turn = 1; turn <= turns; turn++) {
      // Odd turns add a todo, even turns list them: every turn calls a tool and writes to the chat.
      const text = turn % 2 === 1 ? `add a todo: item ${turn}` : 'list my todos';
      const response = await sessionFetch(`${openServer.url}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: chatId, message: userMessage(text) }),
      });
      expect(response.status, `turn ${turn}`).toBe(200);
      const reader = new ChatStreamReader(response);
      await reader.rest();
      lastReply = reader.text();
    }
    console.log(`${turns} turns in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);

    // The last turn listed the todos, including the one added just before it.
    expect(lastReply).toContain(`item ${turns - 1}`);
    const messages = await savedMessages(openServer.url, chatId);
    expect(messages).toHaveLength(turns * 2);
    expect(messages.map((message) => message.role)).toEqual(
      Array.from({ length: turns * 2 }, (_, index) => (index % 2 === 0 ? 'user' : 'assistant')),
    );
    expect(messages[0].parts).toContainEqual({ type: 'text', text: 'add a todo: item 1' });
    expect(messages.at(-2)?.parts).toContainEqual({ type: 'text', text: 'list my todos' });
    expect(JSON.stringify(messages.at(-1))).toContain(`item ${turns - 1}`);
  }, 120_000);
});
