import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { UIMessage } from 'ai';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type Db,
  deleteChat,
  getChat,
  getChatMessages,
  getOrder,
  insertTicket,
  insertTodo,
  listChats,
  listTickets,
  migrate,
  migrations,
  openDatabase,
  saveChat,
  saveMessages,
  searchArticles,
  selectTodos,
} from '@/lib/db';
import { countTickets } from '../support/database-reads';
import { createEmptyDatabase, databaseEngines, type EmptyDatabase } from '../support/test-database';

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function emptyDatabase(engine: (typeof databaseEngines)[number]): Promise<EmptyDatabase> {
  const target = await createEmptyDatabase(engine);
  cleanups.push(target.drop);
  return target;
}

async function connect(target: EmptyDatabase): Promise<Db> {
  const db = await openDatabase({ url: target.url, path: target.path });
  cleanups.push(() => db.destroy());
  return db;
}

async function open(engine: (typeof databaseEngines)[number]): Promise<Db> {
  return connect(await emptyDatabase(engine));
}

async function count(db: Db, table: string): Promise<number> {
  const { rows } = await sql<{ count: number }>`SELECT count(*) AS count FROM ${sql.table(table)}`.execute(
    db,
  );
  return Number(rows[0]?.count);
}

const message = (id: string, role: 'user' | 'assistant', text: string): UIMessage => ({
  id,
  role,
  parts: [{ type: 'text', text }],
});

describe.each(databaseEngines)('database on %s', (engine) => {
  describe('openDatabase', () => {
    it('seeds the sample orders and bilingual articles on first use', async () => {
      const db = await open(engine);
      expect(await count(db, 'orders')).toBe(8);
      expect((await getOrder(db, 'A1008'))?.status).toBe('processing');
      const languages = await db
        .selectFrom('knowledge_articles')
        .select(['lang', (eb) => eb.fn.countAll<number>().as('count')])
        .groupBy('lang')
        .orderBy('lang')
        .execute();
      expect(languages.map((row) => [row.lang, Number(row.count)])).toEqual([
        ['en', 10],
        ['zh', 10],
      ]);
    });

    it('migrates idempotently: reopening neither reseeds nor duplicates', async () => {
      const target = await emptyDatabase(engine);
      const first = await openDatabase({ url: target.url, path: target.path });
      await first.deleteFrom('orders').where('id', '=', 'A1001').execute();
      await first.destroy();
      const second = await connect(target);
      expect(await count(second, 'schema_migrations')).toBe(migrations.length);
      expect(await count(second, 'orders')).toBe(7);
      expect(await count(second, 'knowledge_articles')).toBe(20);
      expect(await migrate(second)).toBe(migrations.length);
    });

    it('refuses a database migrated by a newer build', async () => {
      const db = await open(engine);
      await db
        .insertInto('schema_migrations')
        .values({
          version: migrations.length + 1,
          name: 'from the future',
          applied_at: new Date().toISOString(),
        })
        .execute();
      await expect(migrate(db)).rejects.toThrow(/newer than this code knows/);
    });

    it('runs a migration appended to the list, and only that one', async () => {
      const db = await open(engine);
      const extended = [
        ...migrations,
        {
          name: 'an extra table',
          up: async (target: Db) => {
            await sql`CREATE TABLE extra (id INTEGER)`.execute(target);
          },
        },
      ];
      expect(await migrate(db, extended)).toBe(migrations.length + 1);
      expect(await migrate(db, extended)).toBe(migrations.length + 1);
      expect(await count(db, 'extra')).toBe(0);
      expect(await count(db, 'orders')).toBe(8);
    });

    it('rolls a failed migration back whole, so the next start tries again', async () => {
      const db = await open(engine);
      const broken = [
        ...migrations,
        {
          name: 'half done',
          up: async (target: Db) => {
            await sql`CREATE TABLE half_done (id INTEGER)`.execute(target);
            await sql`THIS IS NOT SQL`.execute(target);
          },
        },
      ];
      await expect(migrate(db, broken)).rejects.toThrow(
        `Migration ${migrations.length + 1} (half done) failed`,
      );
      await expect(count(db, 'half_done')).rejects.toThrow();
      expect(await count(db, 'schema_migrations')).toBe(migrations.length);
    });

    it('migrates an empty database once when two processes start on it together', async () => {
      const target = await emptyDatabase(engine);
      const run = promisify(execFile);
      const argument = target.url ?? target.path;
      const outputs = await Promise.all(
        [1, 2].map(() =>
          run('node_modules/.bin/tsx', ['tests/support/migrate-in-process.ts', argument], {
            timeout: 60_000,
          }).catch((error: { stderr?: string }) => {
            // The child's own stack frames left out: vitest would try to read their source maps.
            const said = (error.stderr ?? String(error)).split('\n').filter((line) => !/^\s+at /.test(line));
            throw new Error(`a migrating process failed: ${said.join('\n').slice(0, 2000)}`);
          }),
        ),
      );
      const ticketIds = outputs.map(({ stdout }) => stdout.trim()).sort();
      expect(ticketIds).toEqual(['TK-000001', 'TK-000002']);
      const db = await connect(target);
      expect(await count(db, 'schema_migrations')).toBe(migrations.length);
      expect(await count(db, 'orders')).toBe(8);
      expect(await count(db, 'knowledge_articles')).toBe(20);
    });

    it('lets two connections see each other’s writes', async () => {
      const target = await emptyDatabase(engine);
      const writer = await connect(target);
      const reader = await connect(target);
      await insertTicket(writer, { title: 'from the first process', userId: 'user-a' });
      expect((await listTickets(reader, { userId: 'user-a' })).map((ticket) => ticket.title)).toEqual([
        'from the first process',
      ]);
    });
  });

  describe('tickets and todos repositories', () => {
    it('lists tickets and todos newest first', async () => {
      const db = await open(engine);
      await insertTicket(db, { title: 'first', userId: 'user-a' });
      await insertTicket(db, { title: 'second', userId: 'user-a' });
      await insertTodo(db, { title: 'a', userId: 'user-a' });
      await insertTodo(db, { title: 'b', userId: 'user-a' });
      expect((await listTickets(db, { userId: 'user-a' })).map((ticket) => ticket.ticketId)).toEqual([
        'TK-000002',
        'TK-000001',
      ]);
      expect((await selectTodos(db, { userId: 'user-a' })).map((todo) => todo.title)).toEqual(['b', 'a']);
    });

    it('gives 30 tickets created at once on two connections 30 distinct numbers', async () => {
      const target = await emptyDatabase(engine);
      const [first, second] = [await connect(target), await connect(target)];
      const created = await Promise.all(
        Array.from({ length: 30 }, (_, index) =>
          insertTicket(index % 2 === 0 ? first : second, { title: `ticket ${index}`, userId: 'user-a' }),
        ),
      );
      expect(new Set(created.map((ticket) => ticket.ticketId)).size).toBe(30);
      expect(await countTickets(first)).toBe(30);
    });

    it('never hands out a deleted ticket’s number again', async () => {
      const db = await open(engine);
      await insertTicket(db, { title: 'one', userId: 'user-a' });
      const second = await insertTicket(db, { title: 'two', userId: 'user-a' });
      await db.deleteFrom('tickets').execute();
      const third = await insertTicket(db, { title: 'three', userId: 'user-a' });
      expect(second.ticketId).toBe('TK-000002');
      expect(third.ticketId).toBe('TK-000003');
    });
  });

  describe('searchArticles', () => {
    it('prefers articles in the language of the query', async () => {
      const db = await open(engine);
      expect((await searchArticles(db, '退货政策'))[0].id).toBe('kb-returns-zh');
      expect((await searchArticles(db, 'return policy'))[0].id).toBe('kb-returns-en');
    });

    it('finds Chinese articles by a two-character word and by part of a sentence', async () => {
      const db = await open(engine);
      expect((await searchArticles(db, '运费'))[0].id).toBe('kb-shipping-zh');
      expect((await searchArticles(db, '怎么退款'))[0].id).toBe('kb-refunds-zh');
    });

    it('treats query syntax and wildcards in a query as plain text', async () => {
      const db = await open(engine);
      expect((await searchArticles(db, 'refund" OR NEAR('))[0].id).toBe('kb-refunds-en');
      expect(await searchArticles(db, '%%__')).toEqual([]);
    });
  });

  describe('chats repository', () => {
    it('saves a chat and replaces its messages in order', async () => {
      const db = await open(engine);
      await saveChat(db, { id: 'chat-1', ownerId: 'owner-a', title: 'Hello', worker: 'assistant' });
      await saveMessages(db, 'chat-1', [message('m1', 'user', 'hi'), message('m2', 'assistant', 'hello')]);
      await saveMessages(db, 'chat-1', [
        message('m1', 'user', 'hi'),
        message('m2', 'assistant', 'hello'),
        message('m3', 'user', 'list my todos'),
      ]);
      const stored = await getChatMessages(db, 'chat-1');
      expect(stored.map((saved) => saved.id)).toEqual(['m1', 'm2', 'm3']);
      expect(stored[2]).toEqual(message('m3', 'user', 'list my todos'));
      expect(await getChat(db, 'chat-1')).toMatchObject({
        ownerId: 'owner-a',
        title: 'Hello',
        worker: 'assistant',
      });
    });

    it('keeps every message of two saves of one chat that race', async () => {
      const target = await emptyDatabase(engine);
      // One SQLite connection per process is how the app runs (a second one in the same
      // process would wait for the lock synchronously, blocking the first); Postgres gets two.
      const first = await connect(target);
      const second = engine === 'postgres' ? await connect(target) : first;
      await saveChat(first, { id: 'chat-1', ownerId: null, title: 'x', worker: 'order' });
      const history = Array.from({ length: 50 }, (_, index) =>
        message(`m${index}`, 'user', `message ${index}`),
      );
      const results = await Promise.all([
        saveMessages(first, 'chat-1', history.slice(0, 40)),
        saveMessages(second, 'chat-1', history),
      ]);
      expect(results).toEqual([true, true]);
      expect((await getChatMessages(first, 'chat-1')).length).toBeGreaterThanOrEqual(40);
    });

    it('keeps the owner when a chat is saved again', async () => {
      const db = await open(engine);
      await saveChat(db, { id: 'chat-1', ownerId: 'owner-a', title: 'Hello', worker: 'order' });
      await saveChat(db, { id: 'chat-1', ownerId: 'owner-b', title: 'Renamed', worker: 'refund' });
      expect(await getChat(db, 'chat-1')).toMatchObject({
        ownerId: 'owner-a',
        title: 'Renamed',
        worker: 'refund',
      });
    });

    it('lists one owner’s chats, most recently updated first', async () => {
      const db = await open(engine);
      await saveChat(db, { id: 'old', ownerId: 'owner-a', title: 'old', worker: 'order' });
      await saveChat(db, { id: 'other', ownerId: 'owner-b', title: 'other', worker: 'order' });
      await new Promise((resolve) => setTimeout(resolve, 5));
      await saveChat(db, { id: 'new', ownerId: 'owner-a', title: 'new', worker: 'order' });
      expect((await listChats(db, 'owner-a')).map((chat) => chat.id)).toEqual(['new', 'old']);
    });

    it('deletes a chat together with its messages', async () => {
      const db = await open(engine);
      await saveChat(db, { id: 'chat-1', ownerId: null, title: 'x', worker: 'order' });
      await saveMessages(db, 'chat-1', [message('m1', 'user', 'hi')]);
      expect(await deleteChat(db, 'chat-1')).toBe(true);
      expect(await getChat(db, 'chat-1')).toBeUndefined();
      expect(await count(db, 'chat_messages')).toBe(0);
      expect(await deleteChat(db, 'chat-1')).toBe(false);
    });

    it('writes nothing for a chat that does not exist (deleted while its turn streamed)', async () => {
      const db = await open(engine);
      expect(await saveMessages(db, 'missing', [message('m1', 'user', 'hi')])).toBe(false);
      expect(await getChatMessages(db, 'missing')).toEqual([]);
    });
  });
});

describe('database on sqlite only', () => {
  it('creates the parent folder and the file', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'toolgate-db-'));
    cleanups.push(async () => rmSync(folder, { recursive: true, force: true }));
    const db = await openDatabase({ path: join(folder, 'nested', 'deeper', 'app.db') });
    await db.destroy();
    expect(existsSync(join(folder, 'nested', 'deeper', 'app.db'))).toBe(true);
  });

  it('uses WAL, foreign keys and a busy timeout so two processes can share the file', async () => {
    const target = await emptyDatabase('sqlite');
    await (await connect(target)).destroy();
    const raw = new Database(target.path);
    cleanups.push(async () => {
      raw.close();
    });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    const db = await connect(target);
    const pragma = async (name: string) =>
      Object.values((await sql.raw(`PRAGMA ${name}`).execute(db)).rows[0] as object)[0];
    expect(await pragma('foreign_keys')).toBe(1);
    expect(await pragma('busy_timeout')).toBe(5000);
  });

  it('adopts a file of an earlier release, which counted its migrations in user_version', async () => {
    const target = await emptyDatabase('sqlite');
    const db = await connect(target);
    await insertTicket(db, { title: 'kept', userId: 'user-a' });
    await sql`DROP TABLE schema_migrations`.execute(db);
    await sql.raw(`PRAGMA user_version = ${migrations.length}`).execute(db);
    await db.destroy();
    const reopened = await connect(target);
    expect((await listTickets(reopened, { userId: 'user-a' })).map((ticket) => ticket.title)).toEqual([
      'kept',
    ]);
    expect(await count(reopened, 'schema_migrations')).toBe(migrations.length);
    expect(await count(reopened, 'orders')).toBe(8);
  });
});
