import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GET as exportAudit } from '@/app/api/audit/export/route';
import { POST as complete } from '@/app/api/chat/complete/route';
import {
  type AuditExportRow,
  createChainVerifier,
  type Db,
  getDb,
  insertAuditRow,
  listAuditExportRows,
  migrate,
  migrations,
  type NewAuditRow,
  openDatabase,
} from '@/lib/db';
import { verifyAuditExport } from '@/scripts/audit-verify';
import { getRequest, jsonRequest, userMessage } from '../support/chat-client';
import { configureServerOn, signUpUser } from '../support/server-env';
import { createEmptyDatabase, databaseEngines } from '../support/test-database';

const run = promisify(execFile);
const adminEmail = 'auditor@example.com';

async function completeTurn(chatId: string, text: string): Promise<void> {
  const response = await complete(
    jsonRequest('/api/chat/complete', { id: chatId, messages: [userMessage(text)] }),
  );
  expect(response.status).toBe(200);
  await response.json();
}

async function exportAs(cookie: string, query = ''): Promise<Response> {
  return exportAudit(getRequest(`/api/audit/export${query}`, { cookie }));
}

function parseLines(text: string): AuditExportRow[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AuditExportRow);
}

/** Runs `npm run audit:verify -- <file>` on `text`; its exit code and what it printed. */
async function verifyCli(text: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const file = join(mkdtempSync(join(tmpdir(), 'toolgate-audit-')), 'export.jsonl');
  writeFileSync(file, text);
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'audit:verify', '--', file]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The same check run in this process (what the command calls), for the chains the tests build. */
async function verifyInProcess(text: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const file = join(mkdtempSync(join(tmpdir(), 'toolgate-audit-')), 'export.jsonl');
  writeFileSync(file, text);
  let stdout = '';
  let stderr = '';
  const code = await verifyAuditExport(file, {
    out: (line) => {
      stdout += `${line}\n`;
    },
    error: (line) => {
      stderr += `${line}\n`;
    },
  });
  return { code, stdout, stderr };
}

const auditRow = (chatId: string, index: number): NewAuditRow => ({
  userId: 'user-1',
  chatId,
  worker: 'refund',
  toolName: 'createTicket',
  toolCallId: `call-${chatId}-${index}`,
  argsHash: 'a'.repeat(64),
  outcome: 'executed',
  durationMs: index,
  createdAt: new Date().toISOString(),
  summary: { en: `Create ticket ${index}`, zh: `创建工单 ${index}` },
});

describe('npm run audit:verify', () => {
  it('refuses a line that is not JSON, naming the line', async () => {
    expect(await verifyCli('not json\n')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('line 1: not JSON'),
    });
  });

  it('refuses a row without its chain fields', async () => {
    expect(await verifyCli('{"id":1}\n')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('seq, prevHash and hash are required'),
    });
  });

  it('accepts an empty export: no rows, nothing to break', async () => {
    expect(await verifyCli('')).toMatchObject({ code: 0, stdout: expect.stringContaining('0 rows chain') });
  });
});

describe.each(databaseEngines)('on %s', (engine) => {
  describe('GET /api/audit/export', () => {
    let admin: string;

    beforeEach(async () => {
      await configureServerOn(engine, { AGENT_CONFIRM_TOOLS: '', TOOLGATE_ADMIN_EMAILS: adminEmail });
      await completeTurn('export-a', 'create a ticket: printer broken');
      await completeTurn('export-a', 'list my todos');
      await completeTurn('export-b', 'create a ticket: projector silent');
      admin = await signUpUser(adminEmail);
    }, 60_000);

    it('streams every row oldest first as JSON Lines, each with its hash, and the CLI verifies it', async () => {
      const response = await exportAs(admin);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
      const text = await response.text();
      const rows = parseLines(text);
      expect(rows.map((row) => [row.seq, row.chatId, row.toolName])).toEqual([
        [1, 'export-a', 'createTicket'],
        [2, 'export-a', 'listTodos'],
        [3, 'export-b', 'createTicket'],
      ]);
      expect(rows[0].prevHash).toBe('0'.repeat(64));
      expect(rows[1].prevHash).toBe(rows[0].hash);
      for (const row of rows) expect(row.hash).toMatch(/^[0-9a-f]{64}$/);

      const verdict = await verifyInProcess(text);
      expect(verdict).toMatchObject({ code: 0, stdout: expect.stringContaining('3 rows chain') });
    }, 60_000);

    it('fails verification at a row edited in the database, naming it', async () => {
      const db = await getDb();
      const [, second] = parseLines(await (await exportAs(admin)).text());
      await sql`UPDATE tool_audit SET outcome = 'denied' WHERE id = ${second.id}`.execute(db);

      const verdict = await verifyInProcess(await (await exportAs(admin)).text());
      expect(verdict.code).toBe(1);
      expect(verdict.stderr).toContain(`row seq 2 (id ${second.id}) does not chain`);
      expect(verdict.stdout).not.toContain('rows chain');
    }, 60_000);

    it('fails verification when a row is deleted, naming the row after the gap', async () => {
      const db = await getDb();
      const [, second, third] = parseLines(await (await exportAs(admin)).text());
      await sql`DELETE FROM tool_audit WHERE id = ${second.id}`.execute(db);
      const verdict = await verifyInProcess(await (await exportAs(admin)).text());
      expect(verdict.code).toBe(1);
      expect(verdict.stderr).toContain(`row seq 3 (id ${third.id}) does not chain`);
    }, 60_000);

    it('pages by time: a window holds only the rows that joined the chain in it, and verifies alone', async () => {
      const all = parseLines(await (await exportAs(admin)).text());
      const since = all[1].chainedAt;
      const window = await (await exportAs(admin, `?since=${encodeURIComponent(since)}`)).text();
      expect(parseLines(window).map((row) => row.seq)).toEqual(
        all.filter((row) => row.chainedAt >= since).map((row) => row.seq),
      );
      expect((await verifyInProcess(window)).code).toBe(0);
      const before = parseLines(await (await exportAs(admin, `?until=${encodeURIComponent(since)}`)).text());
      expect(before.every((row) => row.chainedAt < since)).toBe(true);
      expect(before.length + parseLines(window).length).toBe(all.length);
    }, 60_000);

    it('answers 403 to anyone but an admin', async () => {
      const guest = await signUpUser('someone@example.com');
      const response = await exportAs(guest);
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: expect.any(String) });
    });

    it.each([
      ['a since that is not a time', '?since=yesterday'],
      ['an until that is not a time', '?until=2026-13-45'],
      ['a since after its until', '?since=2026-02-01T00:00:00Z&until=2026-01-01T00:00:00Z'],
    ])('answers 400 with an error for %s', async (_name, query) => {
      const response = await exportAs(admin, query);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: expect.any(String) });
    });
  });

  describe('the audit hash chain', () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    async function twoInstances(): Promise<[Db, Db]> {
      const target = await createEmptyDatabase(engine);
      cleanups.push(target.drop);
      const first = await openDatabase({ url: target.url, path: target.path });
      cleanups.push(() => first.destroy());
      const second = await openDatabase({ url: target.url, path: target.path });
      cleanups.push(() => second.destroy());
      return [first, second];
    }

    function verify(rows: AuditExportRow[]) {
      const verifier = createChainVerifier();
      for (const row of rows) {
        const verdict = verifier.push(row);
        if (verdict !== undefined) return verdict;
      }
      return verifier.end();
    }

    // Two pools on Postgres are two instances. Two SQLite handles in one process cannot stand
    // in for two processes (better-sqlite3 waits for a lock synchronously, blocking the holder),
    // so on SQLite the writers share one handle; the write lock serializes processes the same way.
    it('stays one chain when two instances write rows at the same time', async () => {
      const [first, other] = await twoInstances();
      const second = engine === 'postgres' ? other : first;
      await Promise.all(
        Array.from({ length: 40 }, (_, index) =>
          insertAuditRow(index % 2 === 0 ? first : second, auditRow(`chat-${index % 2}`, index)),
        ),
      );
      const rows = await listAuditExportRows(first, { limit: 100 });
      expect(rows.map((row) => row.seq)).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
      expect(verify(rows)).toEqual({ ok: true, rows: 40, firstSeq: 1, lastSeq: 40 });
    }, 60_000);

    it('chains the rows written before the chain existed, in id order, when migrating', async () => {
      const [db] = await twoInstances();
      // The database as the step before the chain left it (without the later steps' columns too).
      const step = migrations.findIndex((migration) => migration.name === 'audit hash chain');
      await db.deleteFrom('schema_migrations').where('version', '>', step).execute();
      await sql`DROP INDEX tool_audit_seq`.execute(db);
      await sql`DROP INDEX tool_audit_chained_at`.execute(db);
      for (const column of ['seq', 'chained_at', 'prev_hash', 'hash'])
        await sql`ALTER TABLE tool_audit DROP COLUMN ${sql.raw(column)}`.execute(db);
      await sql`ALTER TABLE approvals DROP COLUMN trace_parent`.execute(db);
      for (const id of ['old-1', 'old-2'])
        await sql`INSERT INTO tool_audit (chat_id, worker, tool_name, tool_call_id, args_hash, outcome, duration_ms, created_at, user_id)
          VALUES ('audit-old', 'refund', 'createTicket', ${id}, 'hash', 'executed', 3, '2026-01-01T00:00:00.000Z', NULL)`.execute(
          db,
        );

      expect(await migrate(db)).toBe(migrations.length);
      await insertAuditRow(db, auditRow('audit-new', 1));
      const rows = await listAuditExportRows(db, { limit: 10 });
      expect(rows.map((row) => [row.seq, row.toolCallId])).toEqual([
        [1, 'old-1'],
        [2, 'old-2'],
        [3, 'call-audit-new-1'],
      ]);
      expect(verify(rows)).toMatchObject({ ok: true, rows: 3 });
    }, 60_000);
  });
});
