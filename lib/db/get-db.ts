import 'server-only';
import { getConfig } from '@/lib/config';
import { openDatabase, type SqliteDatabase } from './open-database';

const globalForDb = globalThis as typeof globalThis & { __toolgateDatabases?: Map<string, SqliteDatabase> };

/**
 * The server's shared connection for `DATABASE_PATH`.
 *
 * Kept on `globalThis`, not in a module variable: Next.js loads route handlers and server
 * actions as separate module instances, and each would otherwise open (and migrate) its own.
 */
export function getDb(path: string = getConfig().DATABASE_PATH): SqliteDatabase {
  globalForDb.__toolgateDatabases ??= new Map();
  let db = globalForDb.__toolgateDatabases.get(path);
  if (db === undefined || !db.open) {
    db = openDatabase(path);
    globalForDb.__toolgateDatabases.set(path, db);
  }
  return db;
}
