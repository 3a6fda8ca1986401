import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UIMessage } from 'ai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { POST as extend } from '@/app/api/chat/approve/extend/route';
import { POST as approve } from '@/app/api/chat/approve/route';
import { POST as complete } from '@/app/api/chat/complete/route';
import { POST as chat } from '@/app/api/chat/route';
import { GET as listChats } from '@/app/api/chats/route';
import { getDb, upsertMessage } from '@/lib/db';
import { ChatStreamReader, getRequest, jsonRequest, userMessage } from '../support/chat-client';
import { freePort } from '../support/free-port';
import { configureServer, signInGuest } from '../support/server-env';

/** A local HTTP server that counts the requests it gets: the address a hostile file part names. */
async function startWitness(): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const server: Server = createServer((_request, response) => {
    requests += 1;
    response.writeHead(200, { 'content-type': 'image/png' }).end('not really a png');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/internal/secret.png`,
    requests: () => requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function chatCount(cookie?: string): Promise<number> {
  return ((await (await listChats(getRequest('/api/chats', { cookie }))).json()) as unknown[]).length;
}

async function chatRows(): Promise<number> {
  return (await (await getDb()).selectFrom('chats').select('id').execute()).length;
}

/** A chat body as raw text whose message metadata nests `depth` objects deep. */
function deeplyNestedChatBody(id: string, depth: number): string {
  const message = `{"id":"m1","role":"user","parts":[{"type":"text","text":"hello"}],"metadata":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
  return `{"id":"${id}","message":${message}}`;
}

async function expectJsonError(response: Response, status: number): Promise<string> {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { error: string };
  expect(body).toEqual({ error: expect.any(String) });
  return body.error;
}

describe('request bounds', () => {
  beforeEach(async () => {
    await configureServer();
  });

  describe('the size of one message', () => {
    it('refuses 50 parts of 8,000 characters with 400 { error } and writes no chat', async () => {
      const parts = Array.from({ length: 50 }, (_, index) => ({
        type: 'text',
        text: `${index}`.padEnd(8_000, 'x'),
      }));
      const message = { id: 'hostile-1', role: 'user', parts };
      for (const route of [chat, complete]) {
        const response = await route(jsonRequest('/api/chat', { id: 'hostile-chat', message }));
        expect(await expectJsonError(response, 400)).toMatch(/characters of text and files in all/);
      }
      expect(await chatRows()).toBe(0);
      expect(await chatCount()).toBe(0);
    });
  });

  describe('what else one message carries', () => {
    const long = 'x'.repeat(400_000);
    const dataUrl = 'data:text/plain;base64,aGk=';
    const text = { type: 'text', text: 'hello' };

    it.each([
      ['provider metadata on a text part', { parts: [{ ...text, providerMetadata: { x: { y: long } } }] }],
      ['message metadata', { parts: [text], metadata: { note: long } }],
      ['a data part', { parts: [text, { type: 'data-note', data: long }] }],
      [
        'a file part’s name',
        { parts: [text, { type: 'file', mediaType: 'text/plain', filename: long, url: dataUrl }] },
      ],
      ['a file part’s media type', { parts: [text, { type: 'file', mediaType: long, url: dataUrl }] }],
    ])('stores no 400,000 characters of %s: refused with 400 { error } or dropped', async (_name, fields) => {
      await configureServer({ AGENT_CONFIRM_TOOLS: '' });
      const message = { id: 'big-1', role: 'user', ...fields };
      const response = await chat(jsonRequest('/api/chat', { id: 'big-chat', message }));
      if (response.status === 200) await new ChatStreamReader(response).rest();
      else await expectJsonError(response, 400);
      const rows = await (await getDb()).selectFrom('chat_messages').select('message').execute();
      for (const row of rows) expect(row.message.length).toBeLessThanOrEqual(64 * 1024);
    });
  });

  describe('file parts', () => {
    let witness: Awaited<ReturnType<typeof startWitness>>;
    beforeEach(async () => {
      await configureServer({ AGENT_CONFIRM_TOOLS: '' });
      witness = await startWitness();
    });
    afterEach(async () => {
      await witness.close();
    });

    it('refuses a new message with a file part at a URL, fetches nothing and writes no chat', async () => {
      const message = {
        id: 'file-1',
        role: 'user',
        parts: [
          { type: 'text', text: 'what is in this picture?' },
          { type: 'file', mediaType: 'image/png', url: witness.url },
        ],
      };
      for (const route of [chat, complete]) {
        const response = await route(jsonRequest('/api/chat', { id: 'file-chat', message }));
        expect(await expectJsonError(response, 400)).toMatch(/data: URL/);
      }
      expect(witness.requests()).toBe(0);
      expect(await chatRows()).toBe(0);
    });

    it('never fetches a file part stored in the history, on any later turn', async () => {
      const first = await chat(
        jsonRequest('/api/chat', { id: 'stored-file', message: userMessage('hello') }),
      );
      expect(first.status).toBe(200);
      await new ChatStreamReader(first).rest();
      // A part stored before file URLs were refused (or written by anything but this route).
      const stored: UIMessage = {
        id: 'stored-file-part',
        role: 'user',
        parts: [
          { type: 'text', text: 'and this?' },
          { type: 'file', mediaType: 'image/png', url: witness.url },
        ],
      };
      await upsertMessage(await getDb(), 'stored-file', stored);

      for (const text of ['thanks', 'hello again']) {
        const response = await chat(
          jsonRequest('/api/chat', { id: 'stored-file', message: userMessage(text) }),
        );
        expect(response.status).toBe(200);
        const chunks = await new ChatStreamReader(response).rest();
        expect(chunks.filter((chunk) => chunk.type === 'error')).toEqual([]);
      }
      const response = await complete(
        jsonRequest('/api/chat/complete', { id: 'stored-file', message: userMessage('and now?') }),
      );
      expect(response.status).toBe(200);
      expect(witness.requests()).toBe(0);
    });
  });

  describe('inline files that are not base64', () => {
    beforeEach(async () => {
      await configureServer({ AGENT_CONFIRM_TOOLS: '' });
    });
    const notBase64 = [
      'data:text/plain,hello',
      'data:text/plain;base64,not base64!',
      'data:',
      'data:text/plain;base64,aGk',
    ];

    it('refuses them at the door with 400 { error } and writes no chat', async () => {
      for (const url of notBase64) {
        const message = {
          id: 'raw-file',
          role: 'user',
          parts: [
            { type: 'text', text: 'read this' },
            { type: 'file', mediaType: 'text/plain', url },
          ],
        };
        for (const route of [chat, complete]) {
          const response = await route(jsonRequest('/api/chat', { id: 'raw-file-chat', message }));
          expect(await expectJsonError(response, 400)).toMatch(/base64 data: URL/);
        }
      }
      expect(await chatRows()).toBe(0);
      const fine = await chat(
        jsonRequest('/api/chat', {
          id: 'base64-file-chat',
          message: {
            id: 'fine-file',
            role: 'user',
            parts: [
              { type: 'text', text: 'read this' },
              { type: 'file', mediaType: 'text/plain', url: 'data:text/plain;base64,aGk=' },
            ],
          },
        }),
      );
      expect(fine.status).toBe(200);
      await new ChatStreamReader(fine).rest();
    });

    it('leaves one already in a chat out of later turns, which go on answering', async () => {
      const first = await chat(jsonRequest('/api/chat', { id: 'raw-stored', message: userMessage('hello') }));
      await new ChatStreamReader(first).rest();
      await upsertMessage(await getDb(), 'raw-stored', {
        id: 'raw-stored-part',
        role: 'user',
        parts: [
          { type: 'text', text: 'and this?' },
          { type: 'file', mediaType: 'text/plain', url: 'data:text/plain,hello' },
        ],
      });
      for (const text of ['thanks', 'hello again']) {
        const response = await chat(
          jsonRequest('/api/chat', { id: 'raw-stored', message: userMessage(text) }),
        );
        expect(response.status).toBe(200);
        const chunks = await new ChatStreamReader(response).rest();
        expect(chunks.filter((chunk) => chunk.type === 'error')).toEqual([]);
        expect(chunks.some((chunk) => chunk.type === 'text-delta')).toBe(true);
      }
      const response = await complete(
        jsonRequest('/api/chat/complete', { id: 'raw-stored', message: userMessage('and now?') }),
      );
      expect(response.status).toBe(200);
    });
  });

  describe('nesting', () => {
    it('answers 400 { error } to a chat body nested 20,000 levels deep and writes no chat', async () => {
      for (const route of [chat, complete]) {
        const response = await route(jsonRequest('/api/chat', deeplyNestedChatBody('deep-chat', 20_000)));
        expect(await expectJsonError(response, 400)).toMatch(/deeper than 64 levels/);
      }
      expect(await chatRows()).toBe(0);
    });

    it('accepts a body nested as deep as the limit allows', async () => {
      // The body itself is two levels, the message one more: 61 levels of metadata make 64
      // (the metadata is then dropped: the server writes a message's metadata).
      const response = await chat(jsonRequest('/api/chat', deeplyNestedChatBody('deep-ok', 61)));
      expect(response.status).toBe(200);
      await new ChatStreamReader(response).rest();
    });

    it('answers 400 { error } to a decision or an extension nested deeper than 64 levels, within their size caps', async () => {
      // Those bodies are capped at 16 KiB and 1 KiB: as deep as fits.
      const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
      const decision = `{"approvalId":"a1","sessionId":"s1","approved":true,"input":{"title":${nested(8_000)}}}`;
      expect(await expectJsonError(await approve(jsonRequest('/api/chat/approve', decision)), 400)).toMatch(
        /deeper than 64 levels/,
      );
      const extension = `{"approvalId":"a1","sessionId":"s1","extra":${nested(400)}}`;
      expect(
        await expectJsonError(await extend(jsonRequest('/api/chat/approve/extend', extension)), 400),
      ).toMatch(/deeper than 64 levels/);
    });

    it('answers a `/tool` command nested 12,000 levels deep in three 8,000-character parts with a reply, not an error', async () => {
      await configureServer({ AGENT_CONFIRM_TOOLS: '' });
      const errors = vi.spyOn(console, 'error');
      const command = `/tool createTicket ${'['.repeat(11_990)}${']'.repeat(11_990)}`;
      const parts = [0, 8_000, 16_000].map((start) => ({
        type: 'text',
        text: command.slice(start, start + 8_000),
      }));
      const response = await chat(
        jsonRequest('/api/chat', { id: 'deep-command', message: { id: 'deep-1', role: 'user', parts } }),
      );
      expect(response.status).toBe(200);
      const chunks = await new ChatStreamReader(response).rest();
      expect(chunks.filter((chunk) => chunk.type === 'error')).toEqual([]);
      expect(chunks.some((chunk) => chunk.type === 'tool-input-available')).toBe(false);
      const reply = chunks.flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.delta] : [])).join('');
      expect(reply).toMatch(/nests deeper than 64 levels/);
      expect(errors).not.toHaveBeenCalled();
      errors.mockRestore();
      const tickets = await (await getDb()).selectFrom('tickets').select('title').execute();
      expect(tickets).toEqual([]);
    });
  });

  describe('per-user turn limit (on by default)', () => {
    it('answers the 31st turn within a minute with 429, Retry-After and a clear error; another user goes on', async () => {
      await configureServer({ TOOLGATE_USER_TURN_RATE_LIMIT: undefined, AGENT_CONFIRM_TOOLS: '' });
      for (let turn = 0; turn < 30; turn += 1) {
        const body = { id: `limited-${turn % 3}`, message: userMessage('hello') };
        if (turn % 2 === 0) {
          const response = await chat(jsonRequest('/api/chat', body));
          expect(response.status).toBe(200);
          await new ChatStreamReader(response).rest();
        } else {
          expect((await complete(jsonRequest('/api/chat/complete', body))).status).toBe(200);
        }
      }
      const chatsBefore = await chatRows();
      for (const route of [chat, complete]) {
        const refused = await route(
          jsonRequest('/api/chat', { id: 'limited-new', message: userMessage('hello') }),
        );
        expect(await expectJsonError(refused, 429)).toMatch(/Too many messages/);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      }
      expect(await chatRows()).toBe(chatsBefore);

      const other = await signInGuest();
      const response = await complete(
        jsonRequest(
          '/api/chat/complete',
          { id: 'other-user', message: userMessage('hello') },
          { cookie: other },
        ),
      );
      expect(response.status).toBe(200);
    });

    it('still counts, on each instance, while Redis is unreachable, and chat stays up', async () => {
      vi.spyOn(console, 'error').mockImplementation(() => {});
      await configureServer({
        REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
        TOOLGATE_USER_TURN_RATE_LIMIT: '3/60s',
        AGENT_CONFIRM_TOOLS: '',
      });
      const send = () =>
        complete(
          jsonRequest('/api/chat/complete', {
            id: 'no-redis',
            message: userMessage('where is my order A1001'),
          }),
        );
      expect([(await send()).status, (await send()).status, (await send()).status]).toEqual([200, 200, 200]);
      const refused = await send();
      expect(await expectJsonError(refused, 429)).toMatch(/Too many messages/);
      vi.restoreAllMocks();
    });

    it('can be set per deployment, or turned off', async () => {
      await configureServer({ TOOLGATE_USER_TURN_RATE_LIMIT: '2/60s', AGENT_CONFIRM_TOOLS: '' });
      const send = () =>
        complete(jsonRequest('/api/chat/complete', { id: 'few', message: userMessage('hello') }));
      expect((await send()).status).toBe(200);
      expect((await send()).status).toBe(200);
      expect((await send()).status).toBe(429);

      await configureServer({ TOOLGATE_USER_TURN_RATE_LIMIT: 'off', AGENT_CONFIRM_TOOLS: '' });
      for (let turn = 0; turn < 35; turn += 1) {
        const response = await complete(
          jsonRequest('/api/chat/complete', {
            id: 'many',
            message: { id: `m${turn}`, role: 'user', parts: [{ type: 'text', text: 'hi' }] },
          }),
        );
        expect(response.status).toBe(200);
      }
    });
  });

  describe('hidden characters in a tool call', () => {
    it('shows them as code points in the card’s summary and the audit row, and runs the input as given', async () => {
      await configureServer({ AGENT_CONFIRM_TOOLS: 'createTicket' });
      const title = '退款 \u202e0001€\u202c 给\u200b客户';
      const reader = new ChatStreamReader(
        await chat(
          jsonRequest('/api/chat', { id: 'bidi', message: userMessage(`帮我创建一个工单：${title}`) }),
        ),
      );
      const input = await reader.until('tool-input-available');
      expect(input.input).toMatchObject({ title });
      const request = await reader.until('tool-approval-request');
      const shown = '退款 ⟨U+202E⟩0001€⟨U+202C⟩ 给⟨U+200B⟩客户';
      expect(request.approvalDescriptor).toMatchObject({
        summary: { zh: expect.stringContaining(shown), en: expect.stringContaining(shown) },
      });

      const decided = await approve(
        jsonRequest('/api/chat/approve', {
          approvalId: request.approvalId,
          sessionId: 'bidi',
          approved: true,
        }),
      );
      expect(decided.status).toBe(200);
      await reader.rest();
      const audit = await (await getDb()).selectFrom('tool_audit').select('summary').execute();
      expect(audit).toHaveLength(1);
      expect(audit[0].summary).toContain(shown);
      expect(audit[0].summary).not.toMatch(/[\u200b\u202c\u202e]/);
      const tickets = await (await getDb()).selectFrom('tickets').select('title').execute();
      expect(tickets.map((ticket) => ticket.title)).toEqual([title]);
    });
  });

  describe('pending approvals per user', () => {
    it('refuses a call that would show a card past the cap, without a card or an approval row', async () => {
      await configureServer({ AGENT_CONFIRM_TOOLS: 'createTicket', TOOLGATE_MAX_PENDING_APPROVALS: '2' });
      const readers: ChatStreamReader[] = [];
      for (const id of ['pending-1', 'pending-2']) {
        const response = await chat(
          jsonRequest('/api/chat', { id, message: userMessage('帮我创建一个工单：测试审批') }),
        );
        const reader = new ChatStreamReader(response);
        await reader.until('tool-approval-request');
        readers.push(reader);
      }

      const response = await chat(
        jsonRequest('/api/chat', { id: 'pending-3', message: userMessage('帮我创建一个工单：第三个') }),
      );
      expect(response.status).toBe(200);
      const third = new ChatStreamReader(response);
      const chunks = await third.rest();
      expect(chunks.some((chunk) => chunk.type === 'tool-approval-request')).toBe(false);
      expect(chunks.find((chunk) => chunk.type === 'tool-output-available')).toMatchObject({
        output: { rateLimited: true, reason: 'limit' },
      });
      const rows = await (await getDb()).selectFrom('approvals').select('chat_id').execute();
      expect(rows.map((row) => row.chat_id).sort()).toEqual(['pending-1', 'pending-2']);

      // Another user has a cap of their own.
      const other = await signInGuest();
      const theirs = new ChatStreamReader(
        await chat(
          jsonRequest(
            '/api/chat',
            { id: 'theirs', message: userMessage('帮我创建一个工单：别人的') },
            { cookie: other },
          ),
        ),
      );
      await theirs.until('tool-approval-request');
      for (const reader of [...readers, theirs]) await reader.leave();
    });
  });
});
