import type Database from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** How many distinct statements one database keeps prepared (the app has a few hundred query shapes). */
export const preparedStatementLimit = 500;

/**
 * The SQLite database as Kysely's dialect uses it, with each distinct SQL text prepared once.
 * Kysely prepares every query anew, and preparing (parsing and planning the SQL) is most of
 * what a small query costs in better-sqlite3: a decision runs a dozen small queries.
 *
 * A statement is reused only by the same SQL text, the least recently used one is dropped
 * past `limit`. That is safe because Kysely runs one query at a time on SQLite (its single
 * connection is held by a mutex, and a streamed query holds it until the stream ends), so
 * a statement is never run while another run of it is still iterating; and SQLite re-prepares
 * a statement by itself when the schema it was planned for changes.
 */
export function cachePreparedStatements(
  database: Database.Database,
  limit = preparedStatementLimit,
): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => {
      statements.clear();
      database.close();
    },
    prepare: (sql: string) => {
      let statement = statements.get(sql);
      if (statement !== undefined) {
        // Most recently used last, so the first key is the one to drop.
        statements.delete(sql);
      } else {
        statement = database.prepare(sql) as unknown as SqliteStatement;
        if (statements.size >= limit) {
          const oldest = statements.keys().next().value;
          if (oldest !== undefined) statements.delete(oldest);
        }
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}
