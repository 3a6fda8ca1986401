import { randomUUID } from 'node:crypto';
import { getRedisClient } from '@toolgate/engine/redis';
import type { UIMessage } from 'ai';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { GET as auditLog } from '@/app/api/activity/route';
import { POST as approve } from '@/app/api/chat/approve/route';
import { POST as complete } from '@/app/api/chat/complete/route';
import { POST as chat } from '@/app/api/chat/route';
import { GET as tickets } from '@/app/api/tickets/route';
import { getDb, listAuditRows, migrate, migrations } from '@/lib/db';
import {
  ChatStreamReader,
  getRequest,
  jsonRequest,
  setDefaultTestCookie,
  userMessage,
} from '../support/chat-client';
import { configureServerOn, signInGuest } from '../support/server-env';
import { databaseEngines } from '../support/test-database';

type AuditRow = {
  chatId: string;
  worker: string;
  toolName: string;
  outcome: string;
  argsHash: string;
  summary: { en: string; zh: string } | null;
};

async function readAudit(query: string): Promise<{ status: number; body: unknown }> {
  const response = await auditLog(getRequest(`/api/activity${query}`));
  return { status: response.status, body: await response.json() };
}

async function auditRows(chatId: string): Promise<AuditRow[]> {
  const { status, body } = await readAudit(`?chatId=${chatId}`);
  expect(status).toBe(200);
  return body as AuditRow[];
}

async function startTurn(chatId: string, messages: UIMessage[]) {
  const response = await chat(jsonRequest('/api/chat', { id: chatId, messages }));
  expect(response.status).toBe(200);
  return new ChatStreamReader(response);
}

/** One full turn of the streaming endpoint, answering any approval with `approved`. */
async function runTurn(chatId: string, messages: UIMessage[], approved?: boolean) {
  const reader = await startTurn(chatId, messages);
  if (approved !== undefined) {
    const request = await reader.until('tool-approval-request');
    await approve(
      jsonRequest('/api/chat/approve', { approvalId: request.approvalId, sessionId: chatId, approved }),
    );
  }
  await reader.rest();
  return reader;
}

async function completeTurn(chatId: string, text: string) {
  const response = await complete(
    jsonRequest('/api/chat/complete', { id: chatId, messages: [userMessage(text)] }),
  );
  expect(response.status).toBe(200);
  return (await response.json()) as { toolResults: { toolName: string; output: unknown }[] };
}

function toolOutput(reader: ChatStreamReader): unknown {
  const chunk = reader.chunks.find((candidate) => candidate.type === 'tool-output-available');
  return chunk?.type === 'tool-output-available' ? chunk.output : undefined;
}

describe.each(databaseEngines)('on %s', (engine) => {
  describe('tool call audit', () => {
    beforeEach(async () => {
      await configureServerOn(engine);
    });

    it('records executed, then replayed, for the same ticket asked twice in one chat', async () => {
      await configureServerOn(engine, { AGENT_CONFIRM_TOOLS: '' });
      const first = await runTurn('audit-replay', [userMessage('create a ticket: printer broken')]);
      const history = [userMessage('create a ticket: printer broken'), await first.message()];
      const second = await runTurn('audit-replay', [
        ...history,
        userMessage('create a ticket: printer broken'),
      ]);

      expect(toolOutput(second)).toEqual(toolOutput(first));
      const rows = await auditRows('audit-replay');
      expect(rows.map((row) => row.outcome)).toEqual(['replayed', 'executed']);
      expect(rows[0]).toMatchObject({ chatId: 'audit-replay', worker: 'refund', toolName: 'createTicket' });
      expect(rows[0].argsHash).toBe(rows[1].argsHash);
      // The arguments themselves are kept only as a hash; the call's one-line summary names the title.
      expect(JSON.stringify(rows.map(({ summary: _summary, ...row }) => row))).not.toContain(
        'printer broken',
      );
    });

    it('keeps the call’s one-line summary in both languages on the row', async () => {
      await configureServerOn(engine, { AGENT_CONFIRM_TOOLS: '' });
      await runTurn('audit-summary', [userMessage('create a ticket: printer broken')]);
      await runTurn('audit-summary', [userMessage('where is my order A1001')]);
      const rows = await auditRows('audit-summary');
      expect(rows.map((row) => [row.toolName, row.summary])).toEqual([
        ['getOrderStatus', { en: 'Look up order A1001', zh: '查询订单 A1001' }],
        ['createTicket', { en: 'Create ticket “printer broken”', zh: '创建工单「printer broken」' }],
      ]);
    });

    it('keeps the summary of a denied call too: what was asked for and refused', async () => {
      await runTurn('audit-summary-deny', [userMessage('创建工单：投影仪没声音')], false);
      expect(await auditRows('audit-summary-deny')).toEqual([
        expect.objectContaining({
          outcome: 'denied',
          summary: { en: 'Create ticket “投影仪没声音”', zh: '创建工单「投影仪没声音」' },
        }),
      ]);
    });

    it('answers null for rows written before summaries were kept', async () => {
      const db = await getDb();
      // The database as the step before this one left it: no summary column (nor the
      // columns later steps add), one row.
      await sql`DROP INDEX tool_audit_seq`.execute(db);
      await sql`DROP INDEX tool_audit_chained_at`.execute(db);
      for (const column of ['seq', 'chained_at', 'prev_hash', 'hash', 'summary'])
        await sql`ALTER TABLE tool_audit DROP COLUMN ${sql.raw(column)}`.execute(db);
      await sql`ALTER TABLE approvals DROP COLUMN trace_parent`.execute(db);
      const summaryStep = migrations.findIndex((migration) => migration.name === 'audit call summaries');
      await db.deleteFrom('schema_migrations').where('version', '>', summaryStep).execute();
      await sql`INSERT INTO tool_audit (chat_id, worker, tool_name, tool_call_id, args_hash, outcome, duration_ms, created_at, user_id)
        VALUES ('audit-old', 'refund', 'createTicket', 'call-old', 'hash', 'executed', 3, '2026-01-01T00:00:00.000Z', NULL)`.execute(
        db,
      );
      expect(await migrate(db)).toBe(migrations.length);
      expect(await listAuditRows(db, { chatId: 'audit-old', limit: 10 })).toEqual([
        expect.objectContaining({ toolCallId: 'call-old', summary: null }),
      ]);
    });

    it('records denied when the person says no', async () => {
      await runTurn('audit-deny', [userMessage('create a ticket: please deny')], false);
      expect((await auditRows('audit-deny')).map((row) => row.outcome)).toEqual(['denied']);
    });

    it('records timeout when nobody answers in time', async () => {
      await configureServerOn(engine, { AGENT_CONFIRM_TIMEOUT_MS: '100' });
      await runTurn('audit-timeout', [userMessage('create a ticket: nobody answers')]);
      expect((await auditRows('audit-timeout')).map((row) => row.outcome)).toEqual(['timeout']);
    });

    it('records error when the tool throws, gives the model a tool error with a reference id, caches nothing, and the retry executes', async () => {
      await configureServerOn(engine, { AGENT_CONFIRM_TOOLS: '' });
      const db = await getDb();
      // Hide the table so the real tool's INSERT throws; the audit table is untouched.
      await sql`ALTER TABLE tickets RENAME TO tickets_hidden`.execute(db);
      let broken: ChatStreamReader;
      try {
        broken = await runTurn('audit-error', [userMessage('create a ticket: flaky database')]);
      } finally {
        await sql`ALTER TABLE tickets_hidden RENAME TO tickets`.execute(db);
      }
      // The user sees a reference id; the database's own words stay in the server log.
      expect(broken.chunks).toContainEqual(
        expect.objectContaining({
          type: 'tool-output-error',
          errorText: expect.stringMatching(/^createTicket failed \(reference ERR-[0-9A-Z]{6}\)/),
        }),
      );
      expect(JSON.stringify(broken.chunks)).not.toMatch(/no such table|does not exist/);

      const retry = await runTurn('audit-error', [userMessage('create a ticket: flaky database')]);
      expect(toolOutput(retry)).toMatchObject({ ticketId: expect.stringMatching(/^TK-\d{6}$/) });
      expect(await (await tickets(getRequest('/api/tickets'))).json()).toHaveLength(1);
      expect((await auditRows('audit-error')).map((row) => row.outcome)).toEqual(['executed', 'error']);
    });

    it('refuses a user’s third call over AGENT_TOOL_RATE_LIMIT=2/60s even in a new chat, and leaves another user unaffected', async () => {
      await configureServerOn(engine, { AGENT_CONFIRM_TOOLS: '', AGENT_TOOL_RATE_LIMIT: '2/60s' });
      await completeTurn('audit-busy-1', 'create a ticket: one');
      await completeTurn('audit-busy-2', 'create a ticket: two');
      // A new chat id does not reset the budget: it belongs to the user.
      const third = await completeTurn('audit-busy-3', 'create a ticket: three');
      expect(third.toolResults[0].output).toMatchObject({
        rateLimited: true,
        retryAfterMs: expect.any(Number),
      });
      expect((await auditRows('audit-busy-3')).map((row) => row.outcome)).toEqual(['rate_limited']);
      expect(await (await tickets(getRequest('/api/tickets'))).json()).toHaveLength(2);

      setDefaultTestCookie(await signInGuest());
      const elsewhere = await runTurn('audit-quiet', [userMessage('create a ticket: three')]);
      expect(toolOutput(elsewhere)).toMatchObject({ ticketId: expect.stringMatching(/^TK-/) });
      expect((await auditRows('audit-quiet')).map((row) => row.outcome)).toEqual(['executed']);
      expect(await (await tickets(getRequest('/api/tickets'))).json()).toHaveLength(1);
    });

    it('spends one budget per user through Redis when REDIS_URL is set', async () => {
      await configureServerOn(engine, {
        AGENT_CONFIRM_TOOLS: '',
        AGENT_TOOL_RATE_LIMIT: '1/60s',
        REDIS_URL: inject('redisUrl'),
      });
      const chatId = `audit-redis-${randomUUID()}`;
      await completeTurn(chatId, 'add a todo: water the plants');
      const second = await completeTurn(`${chatId}-new`, 'add a todo: feed the cat');
      expect(second.toolResults[0].output).toMatchObject({ rateLimited: true, reason: 'limit' });
      expect((await auditRows(chatId)).map((row) => row.outcome)).toEqual(['executed']);
      expect((await auditRows(`${chatId}-new`)).map((row) => row.outcome)).toEqual(['rate_limited']);
    });

    describe('when the rate limiter cannot reach Redis', () => {
      const deadUrl = 'redis://127.0.0.1:1';

      afterEach(async () => {
        vi.restoreAllMocks();
        const client = getRedisClient(deadUrl);
        if (client.isOpen) await client.destroy();
      });

      it('fails closed: the tool does not run and the audit says rate_limited', async () => {
        vi.spyOn(console, 'error').mockImplementation(() => {});
        await configureServerOn(engine, {
          AGENT_CONFIRM_TOOLS: '',
          AGENT_TOOL_RATE_LIMIT: '5/60s',
          REDIS_URL: deadUrl,
        });
        const result = await completeTurn('audit-redis-down', 'create a ticket: unmetered?');
        expect(result.toolResults[0].output).toMatchObject({ rateLimited: true, reason: 'unavailable' });
        expect(await (await tickets(getRequest('/api/tickets'))).json()).toEqual([]);
        expect((await auditRows('audit-redis-down')).map((row) => row.outcome)).toEqual(['rate_limited']);
      });
    });
  });

  describe('GET /api/audit', () => {
    beforeEach(async () => {
      await configureServerOn(engine, { AGENT_CONFIRM_TOOLS: '' });
      await runTurn('audit-filter-a', [userMessage('create a ticket: alpha')]);
      await runTurn('audit-filter-a', [userMessage('list my todos')]);
      await runTurn('audit-filter-b', [userMessage('create a ticket: beta')]);
    });

    it('lists every row newest first', async () => {
      const { status, body } = await readAudit('');
      expect(status).toBe(200);
      expect((body as AuditRow[]).map((row) => [row.chatId, row.toolName])).toEqual([
        ['audit-filter-b', 'createTicket'],
        ['audit-filter-a', 'listTodos'],
        ['audit-filter-a', 'createTicket'],
      ]);
    });

    it('filters by chat, tool and outcome, and honours the limit', async () => {
      expect(((await readAudit('?chatId=audit-filter-a')).body as AuditRow[]).length).toBe(2);
      const byTool = (await readAudit('?tool=createTicket')).body as AuditRow[];
      expect(byTool.map((row) => row.chatId)).toEqual(['audit-filter-b', 'audit-filter-a']);
      expect((await readAudit('?outcome=denied')).body).toEqual([]);
      expect(((await readAudit('?outcome=executed&tool=listTodos')).body as AuditRow[]).length).toBe(1);
      expect(((await readAudit('?limit=1')).body as AuditRow[]).map((row) => row.chatId)).toEqual([
        'audit-filter-b',
      ]);
      expect(((await readAudit('?tool=&outcome=')).body as AuditRow[]).length).toBe(3);
    });

    it.each([
      ['an unknown outcome', '?outcome=exploded'],
      ['an unknown tool', '?tool=dropTables'],
      ['a limit of 0', '?limit=0'],
      ['a limit over 500', '?limit=501'],
      ['a limit that is not a number', '?limit=ten'],
      ['a fractional limit', '?limit=1.5'],
      ['a chat id with odd characters', '?chatId=a%27%20OR%201%3D1'],
    ])('answers 400 with an error for %s', async (_name, query) => {
      const { status, body } = await readAudit(query);
      expect(status).toBe(400);
      expect(body).toEqual({ error: expect.any(String) });
    });
  });
});
