import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { cachePreparedStatements } from '@/lib/db/statement-cache';

const opened: Database.Database[] = [];
afterEach(() => {
  for (const database of opened.splice(0)) if (database.open) database.close();
});

function memoryDatabase() {
  const database = new Database(':memory:');
  opened.push(database);
  database.exec('create table notes (id integer primary key, body text not null)');
  return database;
}

describe('cachePreparedStatements', () => {
  it('prepares each SQL text once and hands the same statement back', () => {
    const cached = cachePreparedStatements(memoryDatabase());
    const first = cached.prepare('select * from notes where id = ?');
    expect(cached.prepare('select * from notes where id = ?')).toBe(first);
    expect(cached.prepare('select body from notes')).not.toBe(first);
  });

  it('keeps at most `limit` statements, dropping the least recently used', () => {
    const cached = cachePreparedStatements(memoryDatabase(), 2);
    const a = cached.prepare('select 1');
    const b = cached.prepare('select 2');
    expect(cached.prepare('select 1')).toBe(a); // now the most recently used
    cached.prepare('select 3'); // drops `select 2`
    expect(cached.prepare('select 1')).toBe(a);
    expect(cached.prepare('select 2')).not.toBe(b);
  });

  it('answers through Kysely as before, also after the schema changed under a cached statement', async () => {
    const db = new Kysely<{ notes: { id: number; body: string; tag?: string | null } }>({
      dialect: new SqliteDialect({ database: cachePreparedStatements(memoryDatabase()) }),
    });
    await db.insertInto('notes').values({ id: 1, body: 'one' }).execute();
    const readAll = () => db.selectFrom('notes').selectAll().orderBy('id').execute();
    expect(await readAll()).toEqual([{ id: 1, body: 'one' }]);
    await sql`alter table notes add column tag text`.execute(db);
    await db.insertInto('notes').values({ id: 2, body: 'two', tag: 't' }).execute();
    expect(await readAll()).toEqual([
      { id: 1, body: 'one', tag: null },
      { id: 2, body: 'two', tag: 't' },
    ]);
    await db.destroy();
  });

  it('gives the rows better-sqlite3 would: every column by name, in order, a later one of a name winning', () => {
    const database = memoryDatabase();
    database.exec("insert into notes values (1, 'one'), (2, 'two')");
    const cached = cachePreparedStatements(database);
    for (const query of [
      'select * from notes order by id',
      "select id, body, id as body, null as missing, 1.5 as half, x'00ff' as bytes from notes order by id",
      'select count(*) as count from notes where id > ?',
      "insert into notes (body) values ('three') returning id, body",
    ]) {
      const parameters = query.includes('?') ? [0] : [];
      const expected = query.startsWith('insert')
        ? [{ id: 3, body: 'three' }]
        : database.prepare(query).all(...parameters);
      expect(cached.prepare(query).all(parameters)).toEqual(expected);
    }
    expect([...cached.prepare('select id from notes order by id').iterate([])]).toEqual([
      { id: 1 },
      { id: 2 },
      { id: 3 },
    ]);
  });

  it('names the columns anew once another connection renamed one under a cached statement', () => {
    const folder = mkdtempSync(join(tmpdir(), 'statement-cache-'));
    try {
      const path = join(folder, 'notes.db');
      const first = new Database(path);
      const second = new Database(path);
      opened.push(first, second);
      first.exec(
        "create table notes (id integer primary key, body text not null); insert into notes values (1, 'one')",
      );
      const cached = cachePreparedStatements(first);
      const readAll = cached.prepare('select * from notes');
      expect(readAll.all([])).toEqual([{ id: 1, body: 'one' }]);
      second.exec('alter table notes rename column body to text');
      expect(cached.prepare('select * from notes').all([])).toEqual([{ id: 1, text: 'one' }]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
