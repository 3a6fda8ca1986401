import { afterEach, describe, expect, it, vi } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { GET as readChat } from '@/app/api/chats/[id]/route';
import { GET as tickets } from '@/app/api/tickets/route';
import { ChatStreamReader, getRequest, jsonRequest, userMessage } from '../support/chat-client';
import { freePort } from '../support/next-server';
import { configureServer } from '../support/server-env';

async function turn(chatId: string, text: string) {
  const response = await chat(jsonRequest('/api/chat', { id: chatId, messages: [userMessage(text)] }));
  expect(response.status).toBe(200);
  const reader = new ChatStreamReader(response);
  await reader.rest();
  return reader;
}

const referencePattern = /ERR-[0-9A-Z]{6}/;
// What the store's failure says about the deployment; none of it may reach a user.
const internalText = /redis|unavailable|unreachable|ECONNREFUSED|127\.0\.0\.1/i;

afterEach(() => {
  vi.restoreAllMocks();
});

/* Redis configured but down: fail closed, never run a guarded write unprotected. */
describe('with Redis unreachable', () => {
  it('refuses a guarded write, writes nothing, and shows the user a reference id instead of the internal error', async () => {
    const errorLog = vi.spyOn(console, 'error').mockImplementation(() => {});
    await configureServer({ REDIS_URL: `redis://127.0.0.1:${await freePort()}`, AGENT_CONFIRM_TOOLS: '' });
    const reader = await turn('down-write', 'create a ticket: printer on fire');
    const error = reader.chunks.find((chunk) => chunk.type === 'tool-output-error');
    expect(error).toMatchObject({
      type: 'tool-output-error',
      errorText: expect.stringMatching(referencePattern),
    });
    expect(reader.chunks.some((chunk) => chunk.type === 'tool-output-available')).toBe(false);
    expect(await (await tickets(getRequest('/api/tickets'))).json()).toEqual([]);

    // The reply names the same reference; neither it nor the saved chat carries the store's own words.
    const reference = referencePattern.exec(JSON.stringify(error))?.[0] as string;
    expect(reader.text()).toContain(reference);
    const saved = await readChat(jsonRequest('/api/chats/down-write', undefined, { method: 'GET' }), {
      params: Promise.resolve({ id: 'down-write' }),
    });
    const userVisible = [JSON.stringify(reader.chunks), JSON.stringify(await saved.json())];
    for (const text of userVisible) {
      expect(text).toContain(reference);
      expect(text).not.toMatch(internalText);
    }

    // The details went to the server log, under that reference.
    const logged = errorLog.mock.calls.find((call) => String(call[0]).includes(reference));
    expect(logged).toBeDefined();
    expect(String(logged?.[1])).toMatch(internalText);
  });

  it('denies a listed tool instead of asking a person it cannot track', async () => {
    await configureServer({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    const reader = await turn('down-approval', 'create a ticket: nobody can approve');
    expect(reader.chunks.some((chunk) => chunk.type === 'tool-approval-request')).toBe(false);
    const output = reader.chunks.find((chunk) => chunk.type === 'tool-output-available');
    expect(output).toMatchObject({ output: { denied: true } });
    expect(await (await tickets(getRequest('/api/tickets'))).json()).toEqual([]);
  });

  it('still answers reads, which are not guarded', async () => {
    await configureServer({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    const reader = await turn('down-read', 'where is my order A1001');
    expect(reader.chunks.find((chunk) => chunk.type === 'tool-output-available')).toMatchObject({
      output: { orderId: 'A1001' },
    });
  });
});
