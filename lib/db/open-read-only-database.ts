import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { type Db, isPostgresUrl, markEngine } from './engine';
import type { DatabaseTarget } from './open-database';
import type { DatabaseSchema } from './schema';

/**
 * Opens the app's database for reading only, without migrating it: an SQLite file opened
 * read-only (it must exist), or Postgres sessions whose transactions are read-only. What an
 * operator's report runs on, so it can never change the data it reads.
 */
export function openReadOnlyDatabase({ url, path = '.data/toolgate.db' }: DatabaseTarget): Db {
  const postgres = isPostgresUrl(url);
  const dialect = postgres
    ? new PostgresDialect({
        pool: new pg.Pool({
          connectionString: url,
          max: 2,
          connectionTimeoutMillis: 5_000,
          options: '-c default_transaction_read_only=on',
        }),
      })
    : new SqliteDialect({ database: new Database(path, { readonly: true, fileMustExist: true }) });
  const db = new Kysely<DatabaseSchema>({ dialect });
  markEngine(db, postgres ? 'postgres' : 'sqlite');
  return db;
}
