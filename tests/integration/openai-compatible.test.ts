import type { UIMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as approve } from '@/app/api/chat/approve/route';
import { POST as chat } from '@/app/api/chat/route';
import { GET as tickets } from '@/app/api/tickets/route';
import { ChatStreamReader, getRequest, jsonRequest, userMessage } from '../support/chat-client';
import { type RecordedRequest, startFakeOpenAIServer } from '../support/fake-openai-server';
import { configureServer } from '../support/server-env';

/*
 * The OpenAI path end to end, against a fake OpenAI-compatible server: the real
 * @ai-sdk/openai chat adapter converts the history the browser sends back
 * (approval parts included) and streams tool calls in. A denied and an allowed
 * createTicket in one chat must both go through without an error.
 */
describe('an OpenAI-compatible model', () => {
  let fake: Awaited<ReturnType<typeof startFakeOpenAIServer>>;

  beforeAll(async () => {
    fake = await startFakeOpenAIServer();
    await configureServer({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseURL, AI_MODEL: undefined });
  });

  afterAll(async () => {
    await fake.close();
  });

  async function turn(messages: UIMessage[], decide?: boolean, chatId = 'openai-chat') {
    const response = await chat(jsonRequest('/api/chat', { id: chatId, messages }));
    expect(response.status).toBe(200);
    const reader = new ChatStreamReader(response);
    if (decide !== undefined) {
      const request = await reader.until('tool-approval-request');
      const decision = await approve(
        jsonRequest('/api/chat/approve', {
          approvalId: request.approvalId,
          sessionId: 'openai-chat',
          approved: decide,
        }),
      );
      expect(decision.status).toBe(200);
    }
    const message = await reader.message();
    expect(reader.chunks.filter((chunk) => chunk.type === 'error')).toEqual([]);
    return { reader, message };
  }

  it('carries a denied and an allowed call through a multi-turn chat without errors', async () => {
    const history: UIMessage[] = [userMessage('create a ticket: first try')];
    const denied = await turn(history, false);
    expect(denied.reader.text()).toContain('nothing was created');
    expect(denied.message.metadata).toMatchObject({ model: 'openai:gpt-4o-mini' });
    history.push(denied.message, userMessage('create a ticket: second try'));

    const allowed = await turn(history, true);
    const ticketId = /TK-\d{6}/.exec(allowed.reader.text())?.[0];
    expect(ticketId).toBeDefined();
    history.push(allowed.message, userMessage('thanks!'));

    const closing = await turn(history);
    expect(closing.reader.text()).toContain('Happy to help');
    expect(await (await tickets(getRequest('/api/tickets'))).json()).toEqual([
      expect.objectContaining({ ticketId, title: 'second try' }),
    ]);

    // What the adapter sent on the last turn: both calls and both results, in order, nothing dangling.
    const last = fake.requests.filter((request) => request.stream).at(-1) as RecordedRequest;
    const roles = last.messages.map((message) => message.role);
    expect(roles).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ]);
    const toolMessages = last.messages.filter((message) => message.role === 'tool');
    expect(JSON.stringify(toolMessages[0]?.content)).toContain('denied');
    expect(JSON.stringify(toolMessages[1]?.content)).toContain(ticketId);
    const callIds = last.messages.flatMap((message) =>
      (message.tool_calls ?? []).map((call) => (call as { id: string }).id),
    );
    expect(toolMessages.map((message) => message.tool_call_id)).toEqual(callIds);
  });

  it('reads a text file the provider cannot take as text, in that turn and every later one', async () => {
    const note = 'Meeting moved to Thursday 10:00, room 4B.';
    const withFile: UIMessage = {
      id: 'file-message',
      role: 'user',
      parts: [
        { type: 'text', text: 'what does this note say?' },
        {
          type: 'file',
          mediaType: 'text/plain',
          filename: 'note.txt',
          url: `data:text/plain;base64,${Buffer.from(note).toString('base64')}`,
        },
      ],
    };
    const first = await turn([withFile], undefined, 'openai-file-chat');
    expect(first.reader.text()).toContain('Happy to help');
    const sent = fake.requests.filter((request) => request.stream).at(-1) as RecordedRequest;
    expect(JSON.stringify(sent.messages.at(-1)?.content)).toContain(note);

    const later = await turn(
      [withFile, first.message, userMessage('thanks!')],
      undefined,
      'openai-file-chat',
    );
    expect(later.reader.text()).toContain('Happy to help');
  });
});
