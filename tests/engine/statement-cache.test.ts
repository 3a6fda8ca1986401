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
});
