import { describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
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

/* Redis configured but down: fail closed, never run a guarded write unprotected. */
describe('with Redis unreachable', () => {
  it('refuses a guarded write with a tool error that says why, and writes nothing', async () => {
    await configureServer({ REDIS_URL: `redis://127.0.0.1:${await freePort()}`, AGENT_CONFIRM_TOOLS: '' });
    const reader = await turn('down-write', 'create a ticket: redis is down');
    const error = reader.chunks.find((chunk) => chunk.type === 'tool-output-error');
    expect(error).toMatchObject({
      type: 'tool-output-error',
      errorText: expect.stringMatching(/unavailable|unreachable/i),
    });
    expect(reader.chunks.some((chunk) => chunk.type === 'tool-output-available')).toBe(false);
    expect(await (await tickets(getRequest('/api/tickets'))).json()).toEqual([]);
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
