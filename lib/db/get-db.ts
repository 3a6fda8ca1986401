import 'server-only';
import { getConfig } from '@/lib/config';
import type { Db } from './engine';
import { openDatabase } from './open-database';

const globalForDb = globalThis as typeof globalThis & { __toolgateDatabases?: Map<string, Promise<Db>> };

/**
 * The server's shared database: Postgres when `DATABASE_URL` is set, else the SQLite file
 * at `DATABASE_PATH`.
 *
 * Kept on `globalThis`, not in a module variable: Next.js loads route handlers and server
 * actions as separate module instances, and each would otherwise open (and migrate) its own.
 * A failed open is forgotten, so the next request tries again once the database is back.
 */
export function getDb(): Promise<Db> {
  const config = getConfig();
  const key = config.DATABASE_URL ?? `sqlite:${config.DATABASE_PATH}`;
  globalForDb.__toolgateDatabases ??= new Map();
  const databases = globalForDb.__toolgateDatabases;
  let db = databases.get(key);
  if (db === undefined) {
    db = openDatabase({
      url: config.DATABASE_URL,
      path: config.DATABASE_PATH,
      poolSize: config.DATABASE_POOL_SIZE,
      statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    });
    databases.set(key, db);
    db.catch(() => {
      if (databases.get(key) === db) databases.delete(key);
    });
  }
  return db;
}
