import type { UIMessage } from 'ai';
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { GET as readApproval } from '@/app/api/approvals/[approvalId]/route';
import { POST as approve } from '@/app/api/chat/approve/route';
import { POST as chat } from '@/app/api/chat/route';
import { GET as readChat } from '@/app/api/chats/[id]/route';
import { GET as tickets } from '@/app/api/tickets/route';
import { localeStorageKey } from '@/components/i18n';
import { getDb, migrations, writeTransaction } from '@/lib/db';
import { engineOf } from '@/lib/db/engine';
import {
  ChatStreamReader,
  defaultTestCookie,
  getRequest,
  jsonRequest,
  userMessage,
} from '../support/chat-client';
import { configureServerOn, signInGuest } from '../support/server-env';
import { databaseEngines } from '../support/test-database';

type Preview = { lines: { label: string; value: string }[]; warnings: string[] };
type View = { approvalId: string; input: unknown; preview?: Preview; previewNote?: string };

const params = <T extends Record<string, string>>(value: T) => ({ params: Promise.resolve(value) });

async function send(chatId: string, text: string, cookie = defaultTestCookie()) {
  const response = await chat(
    jsonRequest('/api/chat', { id: chatId, message: userMessage(text) }, { cookie }),
  );
  expect(response.status).toBe(200);
  return new ChatStreamReader(response);
}

async function decide(body: Record<string, unknown>, cookie = defaultTestCookie()) {
  const response = await approve(jsonRequest('/api/chat/approve', body, { cookie }));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function view(approvalId: string, cookie = defaultTestCookie()) {
  const response = await readApproval(
    getRequest(`/api/approvals/${approvalId}`, { cookie }),
    params({ approvalId }),
  );
  return { status: response.status, body: (await response.json()) as View };
}

async function savedPart(chatId: string, cookie = defaultTestCookie()) {
  const response = await readChat(getRequest(`/api/chats/${chatId}`, { cookie }), params({ id: chatId }));
  const { messages } = (await response.json()) as { messages: UIMessage[] };
  const part = messages.at(-1)?.parts.find((candidate) => 'toolCallId' in candidate);
  return part as { approval?: { descriptor?: { preview?: unknown } } } | undefined;
}

/** Opens a ticket as the person behind `cookie` through the card: asked, allowed, done. */
async function openTicket(chatId: string, title: string, cookie = defaultTestCookie()): Promise<string> {
  const reader = await send(chatId, `create a ticket: ${title}`, cookie);
  const request = await reader.until('tool-approval-request');
  expect((await decide({ approvalId: request.approvalId, chatId, approved: true }, cookie)).status).toBe(200);
  await reader.rest();
  const list = (await (await tickets(getRequest('/api/tickets', { cookie }))).json()) as {
    ticketId: string;
  }[];
  return list[0]?.ticketId ?? '';
}

describe.each(databaseEngines)('approval previews on %s', (engine) => {
  describe('GET /api/approvals/:id', () => {
    beforeEach(async () => {
      await configureServerOn(engine, { AGENT_CONFIRM_TOOLS: 'createTicket,issueRefund,addTodo' });
    });

    it('warns of this user’s open ticket with a similar title, naming it, and the saved card says the same', async () => {
      const existing = await openTicket('first', 'Printer broken on floor 3');
      expect(existing).toMatch(/^TK-\d{6}$/);
      const reader = await send('second', 'create a ticket: printer BROKEN on floor 3!');
      const request = await reader.until('tool-approval-request');

      const { status, body } = await view(request.approvalId);
      expect(status).toBe(200);
      expect(body.preview?.warnings).toEqual([expect.stringContaining(existing)]);
      // The card of the live stream and the saved message carry it too (in every language).
      const descriptor = request.approvalDescriptor as {
        preview?: { warnings: { en: string; zh: string }[] };
      };
      expect(descriptor.preview?.warnings[0]?.en).toContain(existing);
      expect(descriptor.preview?.warnings[0]?.zh).toContain(existing);
      expect((await savedPart('second'))?.approval?.descriptor?.preview).toEqual(descriptor.preview);
      // In the reader's language.
      const zh = await view(request.approvalId, `${defaultTestCookie()}; ${localeStorageKey}=zh`);
      expect(zh.body.preview?.warnings).toEqual([expect.stringMatching(new RegExp(`工单：${existing}`))]);
      await decide({ approvalId: request.approvalId, chatId: 'second', approved: false });
      await reader.rest();
    });

    it('never names another user’s ticket, however similar', async () => {
      const stranger = await signInGuest();
      const theirs = await openTicket('theirs', 'Printer broken on floor 3', stranger);
      expect(theirs).toMatch(/^TK-/);
      const reader = await send('mine', 'create a ticket: Printer broken on floor 3');
      const request = await reader.until('tool-approval-request');
      const { body } = await view(request.approvalId);
      expect(body.preview).toEqual({ lines: [], warnings: [] });
      expect(JSON.stringify(request.approvalDescriptor)).not.toContain(theirs);
      await decide({ approvalId: request.approvalId, chatId: 'mine', approved: false });
      await reader.rest();
    });

    it('does not warn of a ticket with another title', async () => {
      await openTicket('first', 'Printer broken on floor 3');
      const reader = await send('second', 'create a ticket: refund for my headphones');
      const request = await reader.until('tool-approval-request');
      expect((await view(request.approvalId)).body.preview).toEqual({ lines: [], warnings: [] });
      await decide({ approvalId: request.approvalId, chatId: 'second', approved: false });
      await reader.rest();
    });

    it('shows a refund’s total, refunded so far and what remains, with no warning (a refund that would be refused never gets a card)', async () => {
      const reader = await send('refund', 'refund 80 on A1002, it arrived broken');
      const request = await reader.until('tool-approval-request');
      const { body } = await view(request.approvalId);
      expect(body.preview?.lines.map((line) => line.label)).toEqual([
        'Order total',
        'Refunded so far',
        'Left after this refund',
      ]);
      expect(body.preview?.lines[0]?.value).toMatch(/520/);
      expect(body.preview?.lines[2]?.value).toMatch(/440/);
      expect(body.preview?.warnings).toEqual([]);
      await decide({ approvalId: request.approvalId, chatId: 'refund', approved: false });
      await reader.rest();
    });

    it('titles a refund whose input names no currency with the order’s currency, on the chat card and the approval', async () => {
      const reader = await send('refund-title', 'refund 80 on A1002, it arrived broken');
      const request = await reader.until('tool-approval-request');
      const { body } = await view(request.approvalId);
      expect(body.input).not.toHaveProperty('currency');
      // The order's currency, as the preview shows its total ("520.00 USD").
      const currency = body.preview?.lines[0]?.value.split(' ').at(-1);
      expect(currency).toMatch(/^[A-Z]{3}$/);
      expect((body as View & { summary?: Record<string, string> }).summary).toEqual({
        en: `Refund 80.00 ${currency} on order A1002`,
        zh: `订单 A1002 退款 80.00 ${currency}`,
      });
      const descriptor = request.approvalDescriptor as { summary?: Record<string, string> };
      expect(descriptor.summary?.en).toBe(`Refund 80.00 ${currency} on order A1002`);
      await decide({ approvalId: request.approvalId, chatId: 'refund-title', approved: false });
      await reader.rest();
    });

    it('warns of an open to-do with the same title', async () => {
      const first = await send('todo-1', 'add a todo: buy milk');
      const asked = await first.until('tool-approval-request');
      await decide({ approvalId: asked.approvalId, chatId: 'todo-1', approved: true });
      await first.rest();
      const reader = await send('todo-2', 'add a todo: Buy milk.');
      const request = await reader.until('tool-approval-request');
      expect((await view(request.approvalId)).body.preview?.warnings).toEqual([
        expect.stringContaining('buy milk'),
      ]);
      await decide({ approvalId: request.approvalId, chatId: 'todo-2', approved: false });
      await reader.rest();
    });

    it('computes the preview again after an edit', async () => {
      const existing = await openTicket('first', 'Printer broken on floor 3');
      const reader = await send('second', 'create a ticket: my headphones are broken');
      const request = await reader.until('tool-approval-request');
      expect((await view(request.approvalId)).body.preview?.warnings).toEqual([]);
      // The requester edits and allows: the row keeps the preview of what ran.
      await decide({
        approvalId: request.approvalId,
        chatId: 'second',
        approved: true,
        input: { title: 'printer broken on floor 3' },
      });
      await reader.rest();
      const { body } = await view(request.approvalId);
      expect(body.input).toEqual({ title: 'printer broken on floor 3' });
      expect(body.preview?.warnings).toEqual([expect.stringContaining(existing)]);
    });

    it('keeps the preview column migration re-runnable', async () => {
      const db = await getDb();
      const step = migrations.findIndex((migration) => migration.name === 'approval previews');
      await writeTransaction(db, (transaction) => migrations[step].up(transaction, engineOf(db)));
      await sql`select preview from approvals`.execute(db);
    });
  });

  describe.each(['slow-preview', 'failing-preview'])('with TOOLGATE_FAULT=%s', (fault) => {
    beforeEach(async () => {
      await configureServerOn(engine, { TOOLGATE_TESTING: '1', TOOLGATE_FAULT: fault });
    });

    it('shows the card without the preview, says why, and the call still runs', async () => {
      const started = Date.now();
      const reader = await send('faulty', 'create a ticket: printer broken');
      const request = await reader.until('tool-approval-request');
      // Bounded: the card is not held up for long by a preview that hangs (generous bound).
      expect(Date.now() - started).toBeLessThan(15_000);
      const { status, body } = await view(request.approvalId);
      expect(status).toBe(200);
      expect(body.preview).toBeUndefined();
      expect(body.previewNote).toMatch(/No preview/);
      expect(
        (await decide({ approvalId: request.approvalId, chatId: 'faulty', approved: true })).status,
      ).toBe(200);
      await reader.rest();
      const list = (await (await tickets(getRequest('/api/tickets'))).json()) as { title: string }[];
      expect(list.map((ticket) => ticket.title)).toEqual(['printer broken']);
    });
  });
});
