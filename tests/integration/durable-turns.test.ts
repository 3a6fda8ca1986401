import { createMemoryApprovalRegistry } from '@toolgate/engine';
import { readUIMessageStream, type UIMessage, type UIMessageChunk, validateUIMessages } from 'ai';
import { beforeEach, describe, expect, it } from 'vitest';
import { GET as activity } from '@/app/api/activity/route';
import { POST as stop } from '@/app/api/chat/[id]/stop/route';
import { GET as resume } from '@/app/api/chat/[id]/stream/route';
import { POST as approve } from '@/app/api/chat/approve/route';
import { POST as chat } from '@/app/api/chat/route';
import { GET as readChat } from '@/app/api/chats/[id]/route';
import { GET as tickets } from '@/app/api/tickets/route';
import { decideApproval, getApproval, takeParkedCall } from '@/lib/approvals';
import { runningTurns } from '@/lib/chat/turn-streams';
import { getDb } from '@/lib/db';
import { ChatStreamReader, getRequest, jsonRequest, userMessage } from '../support/chat-client';
import { configureServer } from '../support/server-env';

const params = (id: string) => ({ params: Promise.resolve({ id }) });

async function send(chatId: string, text: string) {
  const response = await chat(jsonRequest('/api/chat', { id: chatId, message: userMessage(text) }));
  expect(response.status).toBe(200);
  return new ChatStreamReader(response);
}

async function decide(approvalId: string, sessionId: string, approved: boolean) {
  return approve(jsonRequest('/api/chat/approve', { approvalId, sessionId, approved }));
}

async function savedChat(chatId: string) {
  const response = await readChat(
    jsonRequest(`/api/chats/${chatId}`, undefined, { method: 'GET' }),
    params(chatId),
  );
  return (await response.json()) as { messages: UIMessage[]; activeStream: unknown };
}

async function ticketCount(): Promise<number> {
  return ((await (await tickets(getRequest('/api/tickets'))).json()) as unknown[]).length;
}

async function messageOf(chunks: UIMessageChunk[]): Promise<UIMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream, terminateOnError: true })) last = message;
  if (last === undefined) throw new Error('no message');
  return last;
}

function toolPartOf(message: UIMessage | undefined) {
  return message?.parts.find((part) => part.type === 'tool-createTicket') as
    | (UIMessage['parts'][number] & { state: string; approval?: { id: string; reason?: string } })
    | undefined;
}

describe('durable approvals over HTTP', () => {
  beforeEach(async () => {
    await configureServer();
  });

  it('builds messages the SDK itself accepts for a full allow and a full deny turn, live and saved', async () => {
    for (const approved of [true, false]) {
      const chatId = `chat-valid-${approved}`;
      const reader = await send(chatId, 'create a ticket: validate me');
      const request = await reader.until('tool-approval-request');
      await decide(request.approvalId, chatId, approved);
      const chunks = await reader.rest();
      expect(chunks).toContainEqual(
        expect.objectContaining({ type: 'tool-approval-response', approvalId: request.approvalId, approved }),
      );
      const live = await messageOf(chunks);
      await expect(validateUIMessages({ messages: [live] })).resolves.toHaveLength(1);
      expect(toolPartOf(live)?.state).toBe(approved ? 'output-available' : 'output-denied');
      const saved = (await savedChat(chatId)).messages;
      await expect(validateUIMessages({ messages: saved })).resolves.toHaveLength(2);
      expect(toolPartOf(saved.at(-1))?.state).toBe(approved ? 'output-available' : 'output-denied');
    }
  });

  it('saves the card as soon as it is shown, so a reload can answer it from the saved chat', async () => {
    const reader = await send('chat-saved', 'create a ticket: reload me');
    const request = await reader.until('tool-approval-request');
    await expect
      .poll(async () => toolPartOf((await savedChat('chat-saved')).messages.at(-1))?.state)
      .toBe('approval-requested');
    const part = toolPartOf((await savedChat('chat-saved')).messages.at(-1));
    expect(part?.approval).toMatchObject({
      id: request.approvalId,
      descriptor: { expiresAt: expect.any(Number) },
    });
    await decide(request.approvalId, 'chat-saved', true);
    await reader.rest();
  });

  it('replays the running turn from its start on resume, and answers 204 once it has ended', async () => {
    const reader = await send('chat-resume', 'create a ticket: resume me');
    const request = await reader.until('tool-approval-request');
    expect((await savedChat('chat-resume')).activeStream).toMatchObject({ baseParts: -1 });
    const resumed = await resume(
      jsonRequest('/api/chat/chat-resume/stream', undefined, { method: 'GET' }),
      params('chat-resume'),
    );
    expect(resumed.status).toBe(200);
    const replay = new ChatStreamReader(resumed);
    expect(await replay.next()).toMatchObject({ type: 'start' });
    expect((await replay.until('tool-approval-request')).approvalId).toBe(request.approvalId);
    await decide(request.approvalId, 'chat-resume', true);
    await Promise.all([reader.rest(), replay.rest()]);
    expect(replay.text()).toMatch(/TK-\d{6}/);
    const after = await resume(
      jsonRequest('/api/chat/chat-resume/stream', undefined, { method: 'GET' }),
      params('chat-resume'),
    );
    expect(after.status).toBe(204);
  });

  it('stops a waiting turn: the card ends cancelled in the saved chat and a late allow answers 404', async () => {
    const reader = await send('chat-stop', 'create a ticket: stop me');
    const request = await reader.until('tool-approval-request');
    const response = await stop(jsonRequest('/api/chat/chat-stop/stop', {}), params('chat-stop'));
    expect(await response.json()).toEqual({ stopped: true });
    await reader.rest();
    const part = toolPartOf((await savedChat('chat-stop')).messages.at(-1));
    expect(part).toMatchObject({ state: 'output-denied', approval: { approved: false } });
    expect(part?.approval?.reason).toMatch(/^aborted:/);
    expect((await decide(request.approvalId, 'chat-stop', true)).status).toBe(404);
    expect(await ticketCount()).toBe(0);
  });

  it('settles a waiting card as superseded when the user sends a new message instead', async () => {
    const first = await send('chat-supersede', 'create a ticket: printer jam');
    const request = await first.until('tool-approval-request');
    const second = await send('chat-supersede', 'hello');
    await Promise.all([first.rest(), second.rest()]);
    const messages = (await savedChat('chat-supersede')).messages;
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(toolPartOf(messages[1])?.approval?.reason).toMatch(/^superseded:/);
    expect((await decide(request.approvalId, 'chat-supersede', true)).status).toBe(404);
  });

  it('answers one of ten concurrent allows with 200 and creates one ticket', async () => {
    const reader = await send('chat-ten', 'create a ticket: ten clicks');
    const request = await reader.until('tool-approval-request');
    const statuses = await Promise.all(
      Array.from({ length: 10 }, async () => (await decide(request.approvalId, 'chat-ten', true)).status),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 404)).toHaveLength(9);
    await reader.rest();
    expect(await ticketCount()).toBe(1);
  });

  it('continues a turn whose process is gone from the database: one ticket, a reply, saved', async () => {
    const reader = await send('chat-parked', 'create a ticket: after a restart');
    const request = await reader.until('tool-approval-request');
    await expect
      .poll(async () => toolPartOf((await savedChat('chat-parked')).messages.at(-1))?.state)
      .toBe('approval-requested');
    // A new registry is what a restarted server has: nobody is waiting for this approval any more.
    (globalThis as Record<string, unknown>).__toolgateApprovalRegistry = createMemoryApprovalRegistry();
    expect(await (await decide(request.approvalId, 'chat-parked', true)).json()).toMatchObject({
      status: 'approved',
    });
    const continued = await resume(
      jsonRequest('/api/chat/chat-parked/stream', undefined, { method: 'GET' }),
      params('chat-parked'),
    );
    let rebuilt: UIMessage | undefined;
    if (continued.status === 200) {
      // A resuming client reads the stream as a replay from its start: it rebuilds the whole message.
      rebuilt = await messageOf(await new ChatStreamReader(continued).rest());
    }
    await expect
      .poll(async () => JSON.stringify((await savedChat('chat-parked')).messages.at(-1)))
      .toMatch(/TK-\d{6}[\s\S]*TK-\d{6}/);
    const saved = (await savedChat('chat-parked')).messages;
    await expect(validateUIMessages({ messages: saved })).resolves.toHaveLength(2);
    if (rebuilt !== undefined) expect(rebuilt.parts).toEqual(saved.at(-1)?.parts);
    expect(await ticketCount()).toBe(1);
  });

  it('keeps every message of a chat sent one message at a time', async () => {
    for (let turn = 0; turn < 30; turn++) await (await send('chat-long', `hello ${turn}`)).rest();
    const messages = (await savedChat('chat-long')).messages;
    expect(messages).toHaveLength(60);
    expect(messages.at(-2)?.parts).toEqual([{ type: 'text', text: 'hello 29' }]);
  });
});

describe('a waiting turn nobody follows any more', () => {
  beforeEach(async () => {
    // Text streams slowly enough that a continuation is still running when it is followed.
    await configureServer({ TOOLGATE_PARK_AFTER_MS: '50', OFFLINE_MODEL_DELAY_MS: '20' });
  });

  async function parkedCard(chatId: string, text: string) {
    const reader = await send(chatId, text);
    const request = await reader.until('tool-approval-request');
    await reader.leave();
    // Parked: the turn has left this process, and nothing is left to resume.
    await expect.poll(() => runningTurns().has(chatId)).toBe(false);
    const resumed = await resume(
      jsonRequest(`/api/chat/${chatId}/stream`, undefined, { method: 'GET' }),
      params(chatId),
    );
    expect(resumed.status).toBe(204);
    expect(toolPartOf((await savedChat(chatId)).messages.at(-1))?.state).toBe('approval-requested');
    return request;
  }

  async function outcomes(): Promise<string[]> {
    const rows = (await (await activity(getRequest('/api/activity'))).json()) as { outcome: string }[];
    return rows.map((row) => row.outcome);
  }

  async function summaries(): Promise<unknown[]> {
    const rows = (await (await activity(getRequest('/api/activity'))).json()) as { summary: unknown }[];
    return rows.map((row) => row.summary);
  }

  it('is parked once its reader left, and an allow still runs the call once and saves the reply', async () => {
    const request = await parkedCard('chat-left', 'create a ticket: nobody watches');
    expect((await decide(request.approvalId, 'chat-left', true)).status).toBe(200);
    const continued = await resume(
      jsonRequest('/api/chat/chat-left/stream', undefined, { method: 'GET' }),
      params('chat-left'),
    );
    // As a page follows it: from nothing, the replay rebuilds the card, its output and the reply.
    expect(continued.status).toBe(200);
    const rebuilt = await messageOf(await new ChatStreamReader(continued).rest());
    await expect
      .poll(async () => JSON.stringify((await savedChat('chat-left')).messages.at(-1)))
      .toMatch(/TK-\d{6}[\s\S]*TK-\d{6}/);
    const saved = (await savedChat('chat-left')).messages;
    await expect(validateUIMessages({ messages: saved })).resolves.toHaveLength(2);
    expect(toolPartOf(saved.at(-1))?.state).toBe('output-available');
    expect(rebuilt.parts).toEqual(saved.at(-1)?.parts);
    expect(await ticketCount()).toBe(1);
    expect(await outcomes()).toEqual(['executed']);
    expect((await decide(request.approvalId, 'chat-left', true)).status).toBe(404);
  });

  it('counts an allowed parked call against AGENT_TOOL_RATE_LIMIT once, not again when it continues', async () => {
    await configureServer({
      TOOLGATE_PARK_AFTER_MS: '50',
      OFFLINE_MODEL_DELAY_MS: '20',
      AGENT_TOOL_RATE_LIMIT: '1/60s',
    });
    const request = await parkedCard('chat-budget', 'create a ticket: one call of my budget');
    expect((await decide(request.approvalId, 'chat-budget', true)).status).toBe(200);
    await expect
      .poll(async () => toolPartOf((await savedChat('chat-budget')).messages.at(-1))?.state)
      .toBe('output-available');
    expect(JSON.stringify(toolPartOf((await savedChat('chat-budget')).messages.at(-1)))).not.toMatch(
      /rateLimited/,
    );
    expect(await ticketCount()).toBe(1);
    expect(await outcomes()).toEqual(['executed']);
  });

  it('records a denial of a parked card in the audit log and the model wraps up', async () => {
    const request = await parkedCard('chat-left-deny', 'create a ticket: the blinds are stuck');
    expect((await decide(request.approvalId, 'chat-left-deny', false)).status).toBe(200);
    await expect
      .poll(async () => toolPartOf((await savedChat('chat-left-deny')).messages.at(-1))?.state)
      .toBe('output-denied');
    await expect.poll(async () => (await savedChat('chat-left-deny')).activeStream).toBeNull();
    const last = (await savedChat('chat-left-deny')).messages.at(-1);
    expect(last?.parts.some((part) => part.type === 'text')).toBe(true);
    expect(await ticketCount()).toBe(0);
    expect(await outcomes()).toEqual(['denied']);
    // The audit row of a parked call names it, as a live call's row does.
    expect(await summaries()).toEqual([
      { en: 'Create ticket “the blinds are stuck”', zh: '创建工单「the blinds are stuck」' },
    ]);
  });

  it('hands a decided parked call to one taker only, with what its turn needs and nothing run yet', async () => {
    const allowed = await parkedCard('chat-take-allow', 'create a ticket: take me once');
    const denied = await parkedCard('chat-take-deny', 'create a ticket: take my no once');
    const db = await getDb();
    for (const [request, approved] of [
      [allowed, true],
      [denied, false],
    ] as const) {
      const owner = (await getApproval(db, request.approvalId))?.ownerId ?? undefined;
      const decision = await decideApproval({ approvalId: request.approvalId, approved }, owner);
      expect(decision).toMatchObject({ status: 200, parked: { approvalId: request.approvalId } });
    }
    // Two takers at once (another instance, a page that reads the chat): one gets each call.
    const [allowTakes, denyTakes] = await Promise.all(
      [allowed, denied].map((request) =>
        Promise.all([takeParkedCall(db, request.approvalId), takeParkedCall(db, request.approvalId)]),
      ),
    );
    const allowTaken = allowTakes?.filter((taken) => taken !== undefined) ?? [];
    const denyTaken = denyTakes?.filter((taken) => taken !== undefined) ?? [];
    expect(allowTaken).toHaveLength(1);
    expect(denyTaken).toHaveLength(1);
    expect(allowTaken[0]?.call).toMatchObject({ toolName: 'createTicket', chatId: 'chat-take-allow' });
    expect(allowTaken[0]?.approved).toBe(true);
    expect(await ticketCount()).toBe(0);
    const denial = denyTaken[0];
    if (denial === undefined || denial.approved) throw new Error('expected the denied call');
    expect(await denial.deny()).toMatchObject({ kind: 'denied', reason: 'denied' });
    expect(await outcomes()).toEqual(['denied']);
    expect(await takeParkedCall(db, denied.approvalId)).toBeUndefined();
  });

  it('expires on time while parked, though nobody opens the chat: audit timeout, card expired, late allow 404', async () => {
    await configureServer({ TOOLGATE_PARK_AFTER_MS: '50', AGENT_CONFIRM_TIMEOUT_MS: '1500' });
    const request = await parkedCard('chat-left-expire', 'create a ticket: forgotten');
    // The activity log does not settle anything on read: only the parked call's own timer can.
    await expect.poll(outcomes, { timeout: 5_000 }).toEqual(['timeout']);
    const part = toolPartOf((await savedChat('chat-left-expire')).messages.at(-1));
    expect(part?.state).toBe('output-denied');
    expect(part?.approval?.reason).toMatch(/^timeout:/);
    expect((await decide(request.approvalId, 'chat-left-expire', true)).status).toBe(404);
    expect(await ticketCount()).toBe(0);
  });

  it('with two parked cards, answers once both are decided: one allowed, one denied, one reply', async () => {
    const chatId = 'chat-left-two';
    const reader = await send(chatId, '帮我创建一个工单：打印机卡纸，再创建一个工单：投影仪没信号');
    const first = await reader.until('tool-approval-request');
    const second = await reader.until('tool-approval-request');
    await reader.leave();
    await expect.poll(() => runningTurns().has(chatId)).toBe(false);
    const parts = async () =>
      ((await savedChat(chatId)).messages.at(-1)?.parts ?? []).filter(
        (part) => part.type === 'tool-createTicket',
      );
    const states = async () => (await parts()).map((part) => (part as { state: string }).state);

    expect((await decide(first.approvalId, chatId, true)).status).toBe(200);
    // The first answer settles its own card; the other keeps waiting, and nobody replies yet.
    expect(await states()).toEqual(['output-available', 'approval-requested']);
    const textBefore = (await savedChat(chatId)).messages
      .at(-1)
      ?.parts.filter((part) => part.type === 'text');

    expect((await decide(second.approvalId, chatId, false)).status).toBe(200);
    await expect.poll(states).toEqual(['output-available', 'output-denied']);
    await expect.poll(async () => (await savedChat(chatId)).activeStream).toBeNull();
    const last = (await savedChat(chatId)).messages.at(-1);
    expect(last?.parts.filter((part) => part.type === 'text').length).toBeGreaterThan(
      textBefore?.length ?? 0,
    );
    await expect(validateUIMessages({ messages: (await savedChat(chatId)).messages })).resolves.toHaveLength(
      2,
    );
    expect(await ticketCount()).toBe(1);
    expect((await outcomes()).sort()).toEqual(['denied', 'executed']);
  });

  it('stays live while a reader follows it, and parks once a resumed reader leaves too', async () => {
    const reader = await send('chat-watched', 'create a ticket: still watching');
    await reader.until('tool-approval-request');
    const resumed = await resume(
      jsonRequest('/api/chat/chat-watched/stream', undefined, { method: 'GET' }),
      params('chat-watched'),
    );
    const replay = new ChatStreamReader(resumed);
    await replay.until('tool-approval-request');
    await reader.leave();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(runningTurns().has('chat-watched')).toBe(true);
    await replay.leave();
    await expect.poll(() => runningTurns().has('chat-watched')).toBe(false);
  });
});
