import { createMemoryApprovalRegistry } from '@toolgate/engine';
import type { UIMessage } from 'ai';
import { beforeEach, describe, expect, it } from 'vitest';
import { GET as activity } from '@/app/api/activity/route';
import { POST as extend } from '@/app/api/chat/approve/extend/route';
import { POST as approve } from '@/app/api/chat/approve/route';
import { POST as chat } from '@/app/api/chat/route';
import { DELETE as revokeRule } from '@/app/api/chats/[id]/approval-rules/[tool]/route';
import { GET as listRules } from '@/app/api/chats/[id]/approval-rules/route';
import { GET as readChat } from '@/app/api/chats/[id]/route';
import { GET as tickets } from '@/app/api/tickets/route';
import { ChatStreamReader, getRequest, jsonRequest, userMessage } from '../support/chat-client';
import { configureServerOn, signInGuest } from '../support/server-env';
import { databaseEngines } from '../support/test-database';

type Ticket = { ticketId: string; title: string; detail?: string | null; orderId?: string | null };
type AuditRow = {
  chatId: string;
  outcome: string;
  detail?: { edited?: boolean; note?: string };
  summary?: { en: string; zh: string } | null;
};

const params = (id: string) => ({ params: Promise.resolve({ id }) });

async function send(chatId: string, text: string, cookie?: string) {
  const response = await chat(
    jsonRequest('/api/chat', { id: chatId, message: userMessage(text) }, cookie ? { cookie } : {}),
  );
  expect(response.status).toBe(200);
  return new ChatStreamReader(response);
}

async function decide(body: Record<string, unknown>, cookie?: string) {
  const response = await approve(jsonRequest('/api/chat/approve', body, cookie ? { cookie } : {}));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function moreTime(approvalId: string, sessionId: string, cookie?: string) {
  const response = await extend(
    jsonRequest('/api/chat/approve/extend', { approvalId, sessionId }, cookie ? { cookie } : {}),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function ticketList(): Promise<Ticket[]> {
  return (await (await tickets(getRequest('/api/tickets'))).json()) as Ticket[];
}

async function auditRows(chatId: string): Promise<AuditRow[]> {
  return (await (await activity(getRequest(`/api/activity?chatId=${chatId}`))).json()) as AuditRow[];
}

async function rulesOf(chatId: string, cookie?: string) {
  const response = await listRules(
    getRequest(`/api/chats/${chatId}/approval-rules`, { cookie }),
    params(chatId),
  );
  return { status: response.status, body: (await response.json()) as { rules?: { toolName: string }[] } };
}

async function savedChat(chatId: string) {
  const response = await readChat(getRequest(`/api/chats/${chatId}`), params(chatId));
  return (await response.json()) as { messages: UIMessage[] };
}

describe.each(databaseEngines)('on %s', (engine) => {
  describe('POST /api/chat/approve with an edited input', () => {
    beforeEach(async () => {
      await configureServerOn(engine);
    });

    it('runs the tool with the edited input, tells the model, and audits the edit', async () => {
      const reader = await send('edit-allow', 'create a ticket: printer brokn');
      const request = await reader.until('tool-approval-request');
      // The card's title is the tool's own summary of the call, in both languages.
      expect(request.approvalDescriptor).toMatchObject({
        summary: { en: 'Create ticket “printer brokn”', zh: '创建工单「printer brokn」' },
      });
      const decision = await decide({
        approvalId: request.approvalId,
        sessionId: 'edit-allow',
        approved: true,
        input: { title: 'Printer broken on floor 3', orderId: 'A1002' },
      });
      expect(decision).toMatchObject({ status: 200, body: { status: 'approved' } });
      const chunks = await reader.rest();

      expect(await ticketList()).toEqual([
        expect.objectContaining({ title: 'Printer broken on floor 3', orderId: 'A1002' }),
      ]);
      const output = chunks.find((chunk) => chunk.type === 'tool-output-available');
      expect(output).toMatchObject({
        output: {
          title: 'Printer broken on floor 3',
          editedInput: { title: 'Printer broken on floor 3', orderId: 'A1002' },
          editNote: expect.stringMatching(/edited/),
        },
      });
      expect(reader.text()).toMatch(/Printer broken on floor 3/);
      expect(reader.text()).toMatch(/You edited the request/);
      await expect
        .poll(async () => (await auditRows('edit-allow'))[0])
        .toMatchObject({
          outcome: 'executed',
          detail: { edited: true },
          // The summary says what ran: the edited input, not the one the model proposed.
          summary: {
            en: 'Create ticket “Printer broken on floor 3”',
            zh: '创建工单「Printer broken on floor 3」',
          },
        });
    });

    it('answers 400 naming the field when the schema rejects the edit, and keeps the call pending', async () => {
      const reader = await send('edit-invalid', 'create a ticket: printer jammed');
      const request = await reader.until('tool-approval-request');
      const rejected = await decide({
        approvalId: request.approvalId,
        sessionId: 'edit-invalid',
        approved: true,
        input: { title: '', orderId: 'not an order' },
      });
      expect(rejected.status).toBe(400);
      expect(rejected.body.error).toEqual(expect.any(String));
      expect(Object.keys(rejected.body.fieldErrors as object).sort()).toEqual(['orderId', 'title']);

      const tooLong = await decide({
        approvalId: request.approvalId,
        sessionId: 'edit-invalid',
        approved: true,
        input: { title: 'x'.repeat(201) },
      });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.fieldErrors).toEqual({ title: [expect.stringMatching(/200/)] });

      // Still pending: a valid decision afterwards wins, with the model's own input.
      expect(
        (await decide({ approvalId: request.approvalId, sessionId: 'edit-invalid', approved: true })).status,
      ).toBe(200);
      await reader.rest();
      expect((await ticketList()).map((ticket) => ticket.title)).toEqual(['printer jammed']);
    });

    it('refuses a body that tries to name another tool', async () => {
      const reader = await send('edit-tool', 'create a ticket: stay a ticket');
      const request = await reader.until('tool-approval-request');
      const response = await decide({
        approvalId: request.approvalId,
        sessionId: 'edit-tool',
        approved: true,
        toolName: 'addTodo',
        input: { title: 'stay a ticket' },
      });
      expect(response.status).toBe(400);
      expect(
        (await decide({ approvalId: request.approvalId, sessionId: 'edit-tool', approved: false })).status,
      ).toBe(200);
      await reader.rest();
    });

    it('derives the idempotency key from the edited input', async () => {
      const first = await send('edit-key', 'create a ticket: draft title');
      const firstRequest = await first.until('tool-approval-request');
      await decide({
        approvalId: firstRequest.approvalId,
        sessionId: 'edit-key',
        approved: true,
        input: { title: 'final title' },
      });
      await first.rest();
      // The same call the person approved, now proposed by the model: answered from the window.
      const second = await send('edit-key', 'create a ticket: final title');
      const secondRequest = await second.until('tool-approval-request');
      await decide({ approvalId: secondRequest.approvalId, sessionId: 'edit-key', approved: true });
      await second.rest();
      expect((await ticketList()).map((ticket) => ticket.title)).toEqual(['final title']);
    });

    it('runs the edited input when the turn that asked is gone', async () => {
      const reader = await send('edit-parked', 'create a ticket: before restart');
      const request = await reader.until('tool-approval-request');
      await expect
        .poll(async () => JSON.stringify((await savedChat('edit-parked')).messages.at(-1)))
        .toMatch(/approval-requested/);
      (globalThis as Record<string, unknown>).__toolgateApprovalRegistry = createMemoryApprovalRegistry();
      const decision = await decide({
        approvalId: request.approvalId,
        sessionId: 'edit-parked',
        approved: true,
        input: { title: 'after restart' },
      });
      expect(decision.status).toBe(200);
      await expect
        .poll(async () => (await ticketList()).map((ticket) => ticket.title))
        .toEqual(['after restart']);
      await expect
        .poll(async () => JSON.stringify((await savedChat('edit-parked')).messages.at(-1)))
        .toMatch(/You edited the request/);
    });
  });

  describe('POST /api/chat/approve with a reason', () => {
    beforeEach(async () => {
      await configureServerOn(engine);
    });

    it('hands the person’s reason to the model, whose reply repeats it, and keeps it in the audit', async () => {
      const reader = await send('deny-reason', 'create a ticket: refund A1001');
      const request = await reader.until('tool-approval-request');
      const decision = await decide({
        approvalId: request.approvalId,
        sessionId: 'deny-reason',
        approved: false,
        reason: 'use the order number A1002 instead',
      });
      expect(decision).toMatchObject({ status: 200, body: { status: 'denied' } });
      const chunks = await reader.rest();
      expect(chunks).toContainEqual(
        expect.objectContaining({
          type: 'tool-approval-response',
          approved: false,
          reason: expect.stringContaining('use the order number A1002 instead'),
        }),
      );
      expect(reader.text()).toContain('use the order number A1002 instead');
      expect(await ticketList()).toEqual([]);
      await expect
        .poll(async () => (await auditRows('deny-reason'))[0])
        .toMatchObject({
          outcome: 'denied',
          detail: { note: 'use the order number A1002 instead' },
        });
    });

    it('answers in Chinese with the reason when the chat is in Chinese', async () => {
      const reader = await send('deny-reason-zh', '帮我创建一个工单：打印机坏了');
      const request = await reader.until('tool-approval-request');
      await decide({
        approvalId: request.approvalId,
        sessionId: 'deny-reason-zh',
        approved: false,
        reason: '请用订单 A1002',
      });
      await reader.rest();
      expect(reader.text()).toContain('你的说明：“请用订单 A1002”');
    });

    it('refuses a reason longer than 500 characters and leaves the call pending', async () => {
      const reader = await send('deny-long', 'create a ticket: long reason');
      const request = await reader.until('tool-approval-request');
      const tooLong = await decide({
        approvalId: request.approvalId,
        sessionId: 'deny-long',
        approved: false,
        reason: 'x'.repeat(501),
      });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.error).toMatch(/reason/);
      expect(
        (await decide({ approvalId: request.approvalId, sessionId: 'deny-long', approved: true })).status,
      ).toBe(200);
      await reader.rest();
      expect(await ticketList()).toHaveLength(1);
    });
  });

  describe('POST /api/chat/approve with remember: "chat"', () => {
    beforeEach(async () => {
      await configureServerOn(engine);
    });

    it('runs later calls of that tool in that chat without a card, audited as approved by rule', async () => {
      const first = await send('rule-chat', 'create a ticket: first');
      const request = await first.until('tool-approval-request');
      await decide({
        approvalId: request.approvalId,
        sessionId: 'rule-chat',
        approved: true,
        remember: 'chat',
      });
      await first.rest();
      expect((await rulesOf('rule-chat')).body).toEqual({
        rules: [{ toolName: 'createTicket', createdAt: expect.any(String) }],
      });

      const second = await send('rule-chat', 'create a ticket: second');
      const chunks = await second.rest();
      expect(chunks.some((chunk) => chunk.type === 'tool-approval-request')).toBe(false);
      expect(second.text()).toMatch(/TK-\d{6}: second/);
      expect((await ticketList()).map((ticket) => ticket.title).sort()).toEqual(['first', 'second']);
      await expect
        .poll(async () => (await auditRows('rule-chat')).map((row) => row.outcome))
        .toEqual(['approved_by_rule', 'executed']);

      // Another chat of the same user still asks.
      const other = await send('rule-other-chat', 'create a ticket: third');
      const otherRequest = await other.until('tool-approval-request');
      await decide({ approvalId: otherRequest.approvalId, sessionId: 'rule-other-chat', approved: false });
      await other.rest();
    });

    it('keeps a rule to its owner: another user cannot list or revoke it', async () => {
      const first = await send('rule-owner', 'create a ticket: mine');
      const request = await first.until('tool-approval-request');
      await decide({
        approvalId: request.approvalId,
        sessionId: 'rule-owner',
        approved: true,
        remember: 'chat',
      });
      await first.rest();
      const stranger = await signInGuest();
      expect((await rulesOf('rule-owner', stranger)).status).toBe(404);
      const revoked = await revokeRule(
        jsonRequest('/api/chats/rule-owner/approval-rules/createTicket', undefined, {
          method: 'DELETE',
          cookie: stranger,
        }),
        { params: Promise.resolve({ id: 'rule-owner', tool: 'createTicket' }) },
      );
      expect(revoked.status).toBe(404);
      expect((await rulesOf('rule-owner')).body.rules).toHaveLength(1);
    });

    it('asks again once the rule is revoked', async () => {
      const first = await send('rule-revoke', 'create a ticket: one');
      const request = await first.until('tool-approval-request');
      await decide({
        approvalId: request.approvalId,
        sessionId: 'rule-revoke',
        approved: true,
        remember: 'chat',
      });
      await first.rest();
      const revoked = await revokeRule(
        jsonRequest('/api/chats/rule-revoke/approval-rules/createTicket', undefined, { method: 'DELETE' }),
        { params: Promise.resolve({ id: 'rule-revoke', tool: 'createTicket' }) },
      );
      expect(await revoked.json()).toEqual({ revoked: true });
      expect((await rulesOf('rule-revoke')).body).toEqual({ rules: [] });
      const second = await send('rule-revoke', 'create a ticket: two');
      const again = await second.until('tool-approval-request');
      await decide({ approvalId: again.approvalId, sessionId: 'rule-revoke', approved: false });
      await second.rest();
      expect((await ticketList()).map((ticket) => ticket.title)).toEqual(['one']);
    });

    it('makes no rule from a denial', async () => {
      const first = await send('rule-deny', 'create a ticket: no');
      const request = await first.until('tool-approval-request');
      const response = await decide({
        approvalId: request.approvalId,
        sessionId: 'rule-deny',
        approved: false,
        remember: 'chat',
      });
      expect(response.status).toBe(400);
      await decide({ approvalId: request.approvalId, sessionId: 'rule-deny', approved: false });
      await first.rest();
      expect((await rulesOf('rule-deny')).body).toEqual({ rules: [] });
    });
  });

  describe('POST /api/chat/approve/extend', () => {
    it('moves the deadline by a minute, three times at most', async () => {
      await configureServerOn(engine);
      const reader = await send('extend-three', 'create a ticket: take your time');
      const request = await reader.until('tool-approval-request');
      const originalExpiresAt = (request.approvalDescriptor as { expiresAt: number }).expiresAt;
      for (let time = 1; time <= 3; time++) {
        const extended = await moreTime(request.approvalId, 'extend-three');
        expect(extended.status).toBe(200);
        expect(extended.body.expiresAt).toBe(originalExpiresAt + time * 60_000);
        expect(extended.body.remainingMs).toBeGreaterThan(time * 60_000);
      }
      const fourth = await moreTime(request.approvalId, 'extend-three');
      expect(fourth.status).toBe(409);
      expect(fourth.body.error).toEqual(expect.any(String));
      // The saved card counts down from the new deadline.
      const saved = JSON.stringify((await savedChat('extend-three')).messages.at(-1));
      expect(saved).toContain(`"expiresAt":${originalExpiresAt + 180_000}`);
      await decide({ approvalId: request.approvalId, sessionId: 'extend-three', approved: false });
      await reader.rest();
    });

    it('keeps the call waiting past its original deadline', async () => {
      await configureServerOn(engine, { AGENT_CONFIRM_TIMEOUT_MS: '1500' });
      const reader = await send('extend-timer', 'create a ticket: still waiting');
      const request = await reader.until('tool-approval-request');
      expect((await moreTime(request.approvalId, 'extend-timer')).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(
        (await decide({ approvalId: request.approvalId, sessionId: 'extend-timer', approved: true })).status,
      ).toBe(200);
      await reader.rest();
      expect(reader.text()).toMatch(/TK-\d{6}/);
    });

    it('answers 404 for an unknown, foreign or settled approval', async () => {
      await configureServerOn(engine);
      const reader = await send('extend-404', 'create a ticket: not yours');
      const request = await reader.until('tool-approval-request');
      expect((await moreTime('no-such-approval', 'extend-404')).status).toBe(404);
      expect((await moreTime(request.approvalId, 'another-chat')).status).toBe(404);
      expect((await moreTime(request.approvalId, 'extend-404', await signInGuest())).status).toBe(404);
      await decide({ approvalId: request.approvalId, sessionId: 'extend-404', approved: false });
      await reader.rest();
      expect((await moreTime(request.approvalId, 'extend-404')).status).toBe(404);
      expect((await extend(jsonRequest('/api/chat/approve/extend', { approvalId: 1 }))).status).toBe(400);
    });
  });
});
