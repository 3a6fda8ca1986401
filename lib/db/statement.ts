import type Database from 'better-sqlite3';

// biome-ignore lint/suspicious/noExplicitAny: the cache holds statements of every shape; `statement` types each one.
type AnyStatement = Database.Statement<any, any>;

const statementsByDb = new WeakMap<Database.Database, Map<string, AnyStatement>>();

/**
 * A prepared statement for `sql` on `db`, compiled once and reused. Preparing is
 * the costly part of a small query; repositories run the same few statements on
 * every chat turn, so each connection keeps its own.
 */
export function statement<PARAMETERS extends unknown[] | object = unknown[], ROW = unknown>(
  db: Database.Database,
  sql: string,
): Database.Statement<PARAMETERS, ROW> {
  let statements = statementsByDb.get(db);
  if (statements === undefined) {
    statements = new Map();
    statementsByDb.set(db, statements);
  }
  let prepared = statements.get(sql);
  if (prepared === undefined) {
    prepared = db.prepare(sql);
    statements.set(sql, prepared);
  }
  return prepared as Database.Statement<PARAMETERS, ROW>;
}
