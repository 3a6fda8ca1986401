import { beforeEach, describe, expect, it } from 'vitest';
import { POST as approve } from '@/app/api/chat/approve/route';
import { POST as chat } from '@/app/api/chat/route';
import { DELETE as deleteChat, GET as readChat } from '@/app/api/chats/[id]/route';
import { GET as listChats } from '@/app/api/chats/route';
import { GET as tickets } from '@/app/api/tickets/route';
import { ChatStreamReader, getRequest, jsonRequest, userMessage } from '../support/chat-client';
import { configureServer, signInGuest } from '../support/server-env';

let alice: string;
let bob: string;

async function startTurn(chatId: string, text: string, cookie: string) {
  const response = await chat(
    jsonRequest('/api/chat', { id: chatId, messages: [userMessage(text)] }, { cookie }),
  );
  expect(response.status).toBe(200);
  return new ChatStreamReader(response);
}

function params(id: string) {
  return { params: Promise.resolve({ id }) };
}

function get(path: string, cookie: string) {
  return jsonRequest(path, undefined, { method: 'GET', cookie });
}

describe('saved chats', () => {
  beforeEach(async () => {
    await configureServer({ AGENT_CONFIRM_TOOLS: '' });
    [alice, bob] = [await signInGuest(), await signInGuest()];
  });

  it('saves a finished turn and restores it for its owner only', async () => {
    const reader = await startTurn('history-1', 'add a todo: water the plants', alice);
    await reader.rest();

    const mine = await (await listChats(get('/api/chats', alice))).json();
    expect(mine).toEqual([
      expect.objectContaining({ id: 'history-1', title: 'add a todo: water the plants' }),
    ]);
    const restored = await (await readChat(get('/api/chats/history-1', alice), params('history-1'))).json();
    expect(restored.messages.map((message: { role: string }) => message.role)).toEqual(['user', 'assistant']);

    expect(await (await listChats(get('/api/chats', bob))).json()).toEqual([]);
    expect((await readChat(get('/api/chats/history-1', bob), params('history-1'))).status).toBe(404);
    expect((await deleteChat(get('/api/chats/history-1', bob), params('history-1'))).status).toBe(404);
  });

  it("refuses a turn in another owner's chat like an unknown chat", async () => {
    await (await startTurn('history-2', 'hello', alice)).rest();
    const response = await chat(
      jsonRequest(
        '/api/chat',
        { id: 'history-2', messages: [userMessage('list my todos')] },
        { cookie: bob },
      ),
    );
    expect(response.status).toBe(404);
  });

  it('forgets the idempotency window of a deleted chat', async () => {
    await (await startTurn('history-3', 'create a ticket: once per chat', alice)).rest();
    await (await startTurn('history-3', 'create a ticket: once per chat', alice)).rest();
    expect(await (await tickets(getRequest('/api/tickets', { cookie: alice }))).json()).toHaveLength(1);

    const removed = await deleteChat(get('/api/chats/history-3', alice), params('history-3'));
    expect(await removed.json()).toEqual({ deleted: true });
    expect((await readChat(get('/api/chats/history-3', alice), params('history-3'))).status).toBe(404);

    await (await startTurn('history-3', 'create a ticket: once per chat', alice)).rest();
    expect(await (await tickets(getRequest('/api/tickets', { cookie: alice }))).json()).toHaveLength(2);
  });

  it('denies the pending approvals of a deleted chat with reason closed', async () => {
    await configureServer();
    [alice, bob] = [await signInGuest(), await signInGuest()];
    const reader = await startTurn('history-4', 'create a ticket: chat deleted while waiting', alice);
    const request = await reader.until('tool-approval-request');

    await deleteChat(get('/api/chats/history-4', alice), params('history-4'));
    const response = await reader.until('tool-approval-response');
    expect(response).toMatchObject({ approved: false, reason: expect.stringMatching(/^closed:/) });
    expect(await reader.next()).toMatchObject({ type: 'tool-output-denied' });
    await reader.rest();

    const late = await approve(
      jsonRequest(
        '/api/chat/approve',
        { approvalId: request.approvalId, sessionId: 'history-4', approved: true },
        { cookie: alice },
      ),
    );
    expect(late.status).toBe(404);
    expect(await (await tickets(getRequest('/api/tickets', { cookie: alice }))).json()).toEqual([]);
  });

  it("answers another owner's decision like an unknown id and leaves the call pending", async () => {
    await configureServer();
    [alice, bob] = [await signInGuest(), await signInGuest()];
    const reader = await startTurn('history-5', 'create a ticket: only alice decides', alice);
    const request = await reader.until('tool-approval-request');
    const decision = { approvalId: request.approvalId, sessionId: 'history-5', approved: true };

    expect((await approve(jsonRequest('/api/chat/approve', decision, { cookie: bob }))).status).toBe(404);
    expect((await approve(jsonRequest('/api/chat/approve', decision))).status).toBe(404);
    expect(
      await (await approve(jsonRequest('/api/chat/approve', decision, { cookie: alice }))).json(),
    ).toMatchObject({
      status: 'approved',
    });
    await reader.rest();
    expect(await (await tickets(getRequest('/api/tickets', { cookie: alice }))).json()).toHaveLength(1);
  });
});
