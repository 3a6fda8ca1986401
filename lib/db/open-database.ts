import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrations';

/** A better-sqlite3 connection; every repository function takes one as its first argument. */
export type SqliteDatabase = Database.Database;

/** Options for `openDatabase`. */
export type OpenDatabaseOptions = {
  /** How long a writer waits for another process's lock before SQLITE_BUSY. Default 5000 ms. */
  busyTimeoutMs?: number;
};

/**
 * Opens (creating the folder and file if needed), configures, migrates and seeds a database.
 *
 * WAL lets readers run while one process writes, and `busy_timeout` makes a second server
 * process wait for the lock instead of failing, so `next dev` and a script can share one file.
 * Foreign keys are per connection in SQLite, so they are switched on here, every time.
 */
export function openDatabase(
  path: string,
  { busyTimeoutMs = 5000 }: OpenDatabaseOptions = {},
): SqliteDatabase {
  const inMemory = path === ':memory:' || path === '';
  if (!inMemory) mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(busyTimeoutMs))}`);
    if (!inMemory) db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
