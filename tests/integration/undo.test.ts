import type { UIMessage } from 'ai';
import { describe, expect, inject, it } from 'vitest';
import { GET as activity } from '@/app/api/activity/route';
import { POST as approve } from '@/app/api/chat/approve/route';
import { POST as chat } from '@/app/api/chat/route';
import { POST as undo, GET as undoState } from '@/app/api/chat/undo/route';
import { GET as readChat } from '@/app/api/chats/[id]/route';
import { GET as tickets } from '@/app/api/tickets/route';
import { GET as todos } from '@/app/api/todos/route';
import { getDb, getRefundBalance } from '@/lib/db';
import { ChatStreamReader, getRequest, jsonRequest, userMessage } from '../support/chat-client';
import { configureServerOn, signInGuest } from '../support/server-env';
import { databaseEngines } from '../support/test-database';

const params = (id: string) => ({ params: Promise.resolve({ id }) });

async function send(chatId: string, text: string) {
  const response = await chat(jsonRequest('/api/chat', { id: chatId, message: userMessage(text) }));
  expect(response.status).toBe(200);
  return new ChatStreamReader(response);
}

/** Asks for a ticket, allows its card and returns the approval id and the tool's output. */
async function allowedTicket(chatId: string, title: string) {
  const reader = await send(chatId, `/tool createTicket {"title":"${title}"}`);
  const request = await reader.until('tool-approval-request');
  const decision = await approve(
    jsonRequest('/api/chat/approve', { approvalId: request.approvalId, chatId, approved: true }),
  );
  expect(decision.status).toBe(200);
  await reader.rest();
  return { approvalId: request.approvalId, output: outputOf(reader) };
}

function outputOf(reader: ChatStreamReader) {
  const chunk = reader.chunks.find((candidate) => candidate.type === 'tool-output-available');
  if (chunk?.type !== 'tool-output-available') throw new Error('no tool output in the stream');
  return { ...(chunk.output as Record<string, unknown>), toolCallId: chunk.toolCallId } as Record<
    string,
    unknown
  > & {
    toolCallId: string;
  };
}

async function undoCall(body: unknown, cookie?: string) {
  const response = await undo(jsonRequest('/api/chat/undo', body, cookie ? { cookie } : {}));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function ticketList() {
  return (await (await tickets(getRequest('/api/tickets'))).json()) as { ticketId: string; status: string }[];
}

async function savedParts(chatId: string) {
  const response = await readChat(getRequest(`/api/chats/${chatId}`), params(chatId));
  const { messages } = (await response.json()) as { messages: UIMessage[] };
  return messages.flatMap((message) => message.parts) as { toolCallId?: string; output?: unknown }[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(databaseEngines)('POST /api/chat/undo on %s', (engine) => {
  it('cancels an allowed ticket within the window, audits it, marks the saved part and lets a repeat run anew', async () => {
    await configureServerOn(engine);
    const chatId = `undo-ticket-${engine}`;
    const { approvalId, output } = await allowedTicket(chatId, 'wrong printer');

    const state = await undoState(getRequest(`/api/chat/undo?approvalId=${approvalId}`));
    const { remainingMs, undoable } = (await state.json()) as { remainingMs: number; undoable: boolean };
    expect(undoable).toBe(true);
    expect(remainingMs).toBeGreaterThan(0);
    expect(remainingMs).toBeLessThanOrEqual(30_000);

    expect(await undoCall({ approvalId })).toEqual({ status: 200, body: { undone: true } });
    expect(await ticketList()).toEqual([
      expect.objectContaining({ ticketId: output.ticketId, status: 'cancelled' }),
    ]);

    const rows = (await (await activity(getRequest(`/api/activity?chatId=${chatId}`))).json()) as {
      outcome: string;
      toolCallId: string;
    }[];
    expect(rows.map((row) => row.outcome)).toContain('undone');
    const part = (await savedParts(chatId)).find((candidate) => candidate.toolCallId === output.toolCallId);
    // What the model reads of this call on the next turn (the history comes from the saved chat).
    expect(part?.output).toMatchObject({
      ticketId: output.ticketId,
      undone: true,
      undoneMessage: expect.stringContaining(`The user undid ticket ${output.ticketId}`),
    });

    // The undone call no longer replays: asked again, a new ticket is opened.
    const again = await allowedTicket(chatId, 'wrong printer');
    expect(again.output.ticketId).not.toBe(output.ticketId);
    expect((await ticketList()).map((ticket) => ticket.status)).toEqual(['open', 'cancelled']);
  });

  it('removes a to-do undone by chat and tool call id', async () => {
    await configureServerOn(engine, { AGENT_CONFIRM_TOOLS: '' });
    const chatId = `undo-todo-${engine}`;
    const reader = await send(chatId, 'add a todo: buy the wrong milk');
    await reader.rest();
    const { toolCallId } = outputOf(reader);
    expect(await undoCall({ chatId, toolCallId })).toEqual({ status: 200, body: { undone: true } });
    expect(await (await todos(getRequest('/api/todos'))).json()).toEqual([]);
  });

  it('keeps an undo made while the turn still streams: the turn’s final save does not wipe it', async () => {
    // Slow text after the tool's output: the undo lands before the turn saves its last words.
    await configureServerOn(engine, { AGENT_CONFIRM_TOOLS: '', OFFLINE_MODEL_DELAY_MS: '40' });
    const chatId = `undo-streaming-${engine}`;
    const reader = await send(chatId, 'add a todo: water the plastic plant');
    const { toolCallId } = await reader.until('tool-output-available');
    expect(await undoCall({ chatId, toolCallId })).toEqual({ status: 200, body: { undone: true } });
    await reader.rest();
    const part = (await savedParts(chatId)).find((candidate) => candidate.toolCallId === toolCallId);
    expect(part?.output).toMatchObject({ undone: true });
  });

  it('voids an undone refund, so it no longer counts against the order total', async () => {
    await configureServerOn(engine, { AGENT_CONFIRM_TOOLS: '' });
    const chatId = `undo-refund-${engine}`;
    const refund = (amount: number) =>
      send(chatId, `/tool issueRefund {"orderId":"A1003","amount":${amount},"reason":"arrived broken"}`);
    const first = await refund(600);
    await first.rest();
    const { toolCallId, refundId } = outputOf(first);
    expect(refundId).toMatch(/^RF-\d{6}$/);
    expect(await undoCall({ chatId, toolCallId })).toEqual({ status: 200, body: { undone: true } });
    expect(await getRefundBalance(await getDb(), 'A1003')).toMatchObject({ refundedMinor: 0 });

    // A1003 totals 649.00: with the first refund still counted, this one would be refused.
    const second = await refund(649);
    await second.rest();
    expect(outputOf(second)).toMatchObject({ status: 'issued', amount: 649 });
  });

  it('answers 409 past the window and changes nothing', async () => {
    await configureServerOn(engine, { TOOLGATE_UNDO_WINDOW_MS: '1' });
    const chatId = `undo-late-${engine}`;
    const { approvalId } = await allowedTicket(chatId, 'too late to take back');
    await sleep(50);
    const late = await undoCall({ approvalId });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatch(/window/);
    expect((await ticketList()).map((ticket) => ticket.status)).toEqual(['open']);
  });

  it('lets exactly one of two undos at once win; the other and any later one answer 409', async () => {
    await configureServerOn(engine);
    const chatId = `undo-race-${engine}`;
    const { approvalId } = await allowedTicket(chatId, 'undo me twice');
    const results = await Promise.all([undoCall({ approvalId }), undoCall({ approvalId })]);
    expect(results.map((result) => result.status).sort()).toEqual([200, 409]);
    const third = await undoCall({ approvalId });
    expect(third.status).toBe(409);
    expect(third.body.error).toMatch(/already undone/);
  });

  it('answers 404 for another user’s call, exactly as for an unknown one, and 400 for a bad body', async () => {
    await configureServerOn(engine);
    const chatId = `undo-stranger-${engine}`;
    const { approvalId, output } = await allowedTicket(chatId, 'mine alone');
    const stranger = await signInGuest();
    const unknown = await undoCall({ approvalId: 'no-such-approval' });
    expect(unknown.status).toBe(404);
    expect(await undoCall({ approvalId }, stranger)).toEqual(unknown);
    expect(await undoCall({ chatId, toolCallId: output.toolCallId }, stranger)).toEqual(unknown);
    expect((await undoCall({ approvalId: 42 })).status).toBe(400);
    expect((await ticketList()).map((ticket) => ticket.status)).toEqual(['open']);
  });
});

describe('undo with the Redis store', () => {
  it('drops the store entry, so the repeat of an undone to-do executes anew', async () => {
    await configureServerOn('sqlite', { AGENT_CONFIRM_TOOLS: '', REDIS_URL: inject('redisUrl') });
    const chatId = `undo-redis-${Date.now()}`;
    const first = await send(chatId, 'add a todo: water the plants');
    await first.rest();
    const { toolCallId, id } = outputOf(first);
    expect((await undoCall({ chatId, toolCallId })).status).toBe(200);
    const second = await send(chatId, 'add a todo: water the plants');
    await second.rest();
    expect(outputOf(second).id).not.toBe(id);
    expect(((await (await todos(getRequest('/api/todos'))).json()) as unknown[]).length).toBe(1);
  });
});
