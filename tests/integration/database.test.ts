import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UIMessage } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  addTodo,
  createTicket,
  deleteChat,
  getChat,
  getChatMessages,
  getDb,
  getOrder,
  listChats,
  listTickets,
  listTodos,
  migrate,
  migrations,
  openDatabase,
  type SqliteDatabase,
  saveChat,
  saveMessages,
  searchArticles,
} from '@/lib/db';

let folder: string;
const opened: SqliteDatabase[] = [];

function open(name = 'test.db'): SqliteDatabase {
  const db = openDatabase(join(folder, name));
  opened.push(db);
  return db;
}

const count = (db: SqliteDatabase, table: string) =>
  (db.prepare(`SELECT count(*) AS count FROM ${table}`).get() as { count: number }).count;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'toolgate-db-'));
});

afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('openDatabase', () => {
  it('creates the parent folder and the file', () => {
    open(join('nested', 'deeper', 'app.db'));
    expect(existsSync(join(folder, 'nested', 'deeper', 'app.db'))).toBe(true);
  });

  it('uses WAL, foreign keys and a busy timeout so two processes can share the file', () => {
    const db = open();
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
  });

  it('seeds the sample orders and bilingual articles on first use', () => {
    const db = open();
    expect(count(db, 'orders')).toBe(8);
    expect(getOrder(db, 'A1008')?.status).toBe('processing');
    const languages = db
      .prepare('SELECT lang, count(*) AS count FROM knowledge_articles GROUP BY lang')
      .all();
    expect(languages).toEqual([
      { lang: 'en', count: 10 },
      { lang: 'zh', count: 10 },
    ]);
  });

  it('migrates idempotently: reopening neither reseeds nor duplicates', () => {
    const first = open();
    first.prepare("DELETE FROM orders WHERE id = 'A1001'").run();
    first.close();
    const second = open();
    expect(second.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(count(second, 'orders')).toBe(7);
    expect(count(second, 'knowledge_articles')).toBe(20);
    expect(count(second, 'knowledge_fts')).toBe(20);
    expect(migrate(second)).toBe(migrations.length);
  });

  it('lets two connections to one file see each other’s writes', () => {
    const writer = open('shared.db');
    const reader = open('shared.db');
    createTicket(writer, { title: 'from the first process' });
    expect(listTickets(reader).map((ticket) => ticket.title)).toEqual(['from the first process']);
  });

  it('refuses a file migrated by a newer build', () => {
    const db = open();
    db.pragma(`user_version = ${migrations.length + 1}`);
    expect(() => migrate(db)).toThrow(/newer than this code knows/);
  });

  it('runs a migration appended to the list, and only that one', () => {
    const db = open();
    const extended = [
      ...migrations,
      { name: 'audit log', up: (target: SqliteDatabase) => target.exec('CREATE TABLE audit (id INTEGER)') },
    ];
    expect(migrate(db, extended)).toBe(migrations.length + 1);
    expect(count(db, 'audit')).toBe(0);
    expect(count(db, 'orders')).toBe(8);
  });
});

describe('getDb', () => {
  it('returns one shared connection per path', () => {
    const path = join(folder, 'shared-singleton.db');
    const db = getDb(path);
    opened.push(db);
    expect(getDb(path)).toBe(db);
  });
});

describe('tickets and todos repositories', () => {
  it('lists tickets and todos newest first', () => {
    const db = open();
    createTicket(db, { title: 'first' });
    createTicket(db, { title: 'second' });
    addTodo(db, { title: 'a' });
    addTodo(db, { title: 'b' });
    expect(listTickets(db).map((ticket) => ticket.ticketId)).toEqual(['TK-000002', 'TK-000001']);
    expect(listTodos(db).map((todo) => todo.title)).toEqual(['b', 'a']);
  });
});

describe('searchArticles', () => {
  it('prefers articles in the language of the query', () => {
    const db = open();
    expect(searchArticles(db, '退货政策')[0].id).toBe('kb-returns-zh');
    expect(searchArticles(db, 'return policy')[0].id).toBe('kb-returns-en');
  });

  it('treats FTS syntax in a query as plain text', () => {
    const db = open();
    expect(() => searchArticles(db, 'refund" OR NEAR(')).not.toThrow();
    expect(searchArticles(db, 'refund" OR NEAR(')[0].id).toBe('kb-refunds-en');
  });
});

describe('chats repository', () => {
  const message = (id: string, role: 'user' | 'assistant', text: string): UIMessage => ({
    id,
    role,
    parts: [{ type: 'text', text }],
  });

  it('saves a chat and replaces its messages in order', () => {
    const db = open();
    saveChat(db, { id: 'chat-1', ownerId: 'owner-a', title: 'Hello', worker: 'assistant' });
    saveMessages(db, 'chat-1', [message('m1', 'user', 'hi'), message('m2', 'assistant', 'hello')]);
    saveMessages(db, 'chat-1', [
      message('m1', 'user', 'hi'),
      message('m2', 'assistant', 'hello'),
      message('m3', 'user', 'list my todos'),
    ]);
    expect(getChatMessages(db, 'chat-1').map((stored) => stored.id)).toEqual(['m1', 'm2', 'm3']);
    expect(getChatMessages(db, 'chat-1')[2]).toEqual(message('m3', 'user', 'list my todos'));
    expect(getChat(db, 'chat-1')).toMatchObject({ ownerId: 'owner-a', title: 'Hello', worker: 'assistant' });
  });

  it('keeps the owner when a chat is saved again', () => {
    const db = open();
    saveChat(db, { id: 'chat-1', ownerId: 'owner-a', title: 'Hello', worker: 'order' });
    saveChat(db, { id: 'chat-1', ownerId: 'owner-b', title: 'Renamed', worker: 'refund' });
    expect(getChat(db, 'chat-1')).toMatchObject({ ownerId: 'owner-a', title: 'Renamed', worker: 'refund' });
  });

  it('lists one owner’s chats, most recently updated first', async () => {
    const db = open();
    saveChat(db, { id: 'old', ownerId: 'owner-a', title: 'old', worker: 'order' });
    saveChat(db, { id: 'other', ownerId: 'owner-b', title: 'other', worker: 'order' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    saveChat(db, { id: 'new', ownerId: 'owner-a', title: 'new', worker: 'order' });
    expect(listChats(db, 'owner-a').map((chat) => chat.id)).toEqual(['new', 'old']);
  });

  it('deletes a chat together with its messages', () => {
    const db = open();
    saveChat(db, { id: 'chat-1', ownerId: null, title: 'x', worker: 'order' });
    saveMessages(db, 'chat-1', [message('m1', 'user', 'hi')]);
    expect(deleteChat(db, 'chat-1')).toBe(true);
    expect(getChat(db, 'chat-1')).toBeUndefined();
    expect(count(db, 'chat_messages')).toBe(0);
    expect(deleteChat(db, 'chat-1')).toBe(false);
  });

  it('writes nothing for a chat that does not exist (deleted while its turn streamed)', () => {
    const db = open();
    expect(saveMessages(db, 'missing', [message('m1', 'user', 'hi')])).toBe(false);
    expect(getChatMessages(db, 'missing')).toEqual([]);
  });
});
