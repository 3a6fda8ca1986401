import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { type Db, isPostgresUrl, markEngine } from './engine';
import { migrate } from './migrations';
import type { DatabaseSchema } from './schema';
import { cachePreparedStatements } from './statement-cache';

/** Where the data lives: a Postgres URL, or else an SQLite file. */
export type DatabaseTarget = {
  /** `postgres://…`; when set, `path` is ignored. */
  url?: string;
  /** The SQLite file (`:memory:` for a private in-memory database). */
  path?: string;
  /** Postgres: connections in the pool. Default 10. */
  poolSize?: number;
  /** Postgres: a statement running longer than this is cancelled. Default 10000 ms. */
  statementTimeoutMs?: number;
  /** SQLite: how long a writer waits for another process's lock before SQLITE_BUSY. Default 5000 ms. */
  busyTimeoutMs?: number;
};

// int8 (count(*), bigint ids) arrives as a string by default; every integer here fits a double.
const int8Oid = 20;
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === int8Oid ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

function createPostgresDialect({ url, poolSize = 10, statementTimeoutMs = 10_000 }: DatabaseTarget) {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // A request waits this long for a connection, then fails (503) instead of hanging.
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: statementTimeoutMs,
    types: pgTypes,
  });
  // An idle client that loses its server (a Postgres restart) emits 'error' on the pool;
  // unhandled, that would crash the process. The pool drops the client and makes a new one.
  pool.on('error', (error) => console.error('[toolgate] Postgres connection lost:', error.message));
  return new PostgresDialect({ pool });
}

/**
 * Sets `journal_mode = WAL`, retrying while another process holds the lock: two instances
 * starting on a new file switch it together, and SQLite answers SQLITE_BUSY at once to
 * the loser of that switch instead of waiting out `busy_timeout`. Blocks briefly, once,
 * at start-up.
 */
export function switchToWal(
  database: { pragma: (source: string) => unknown },
  {
    timeoutMs,
    now = Date.now,
    pause = pauseSync,
  }: { timeoutMs: number; now?: () => number; pause?: (ms: number) => void },
): void {
  const deadline = now() + timeoutMs;
  for (let delayMs = 5; ; delayMs = Math.min(delayMs * 2, 100)) {
    try {
      database.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || now() >= deadline) throw error;
      pause(delayMs);
    }
  }
}

function pauseSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function createSqliteDialect({ path = '.data/toolgate.db', busyTimeoutMs = 5000 }: DatabaseTarget) {
  const inMemory = path === ':memory:' || path === '';
  if (!inMemory) mkdirSync(dirname(path), { recursive: true });
  const database = new Database(path);
  try {
    // WAL lets readers run while one process writes; busy_timeout makes a second process
    // wait for the lock instead of failing. Foreign keys are per connection in SQLite.
    database.pragma(`busy_timeout = ${Math.max(0, Math.trunc(busyTimeoutMs))}`);
    if (!inMemory) switchToWal(database, { timeoutMs: busyTimeoutMs });
    database.pragma('synchronous = NORMAL');
    database.pragma('foreign_keys = ON');
  } catch (error) {
    database.close();
    throw error;
  }
  return new SqliteDialect({ database: cachePreparedStatements(database) });
}

/**
 * Opens the database — Postgres when `url` is set, else the SQLite file at `path` —
 * and brings its schema up to date (creating and seeding it on first use).
 */
export async function openDatabase(target: DatabaseTarget): Promise<Db> {
  const postgres = isPostgresUrl(target.url);
  const dialect = postgres ? createPostgresDialect(target) : createSqliteDialect(target);
  const db = new Kysely<DatabaseSchema>({ dialect });
  markEngine(db, postgres ? 'postgres' : 'sqlite');
  try {
    await migrate(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
}
