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
 * a statement by itself when the schema it was planned for changes. Rows of a reading
 * statement are made objects here (`withRowsBuiltHere`), the same objects as better-sqlite3's.
 */
export function cachePreparedStatements(
  database: Database.Database,
  limit = preparedStatementLimit,
): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  const schemaVersion = database.prepare('PRAGMA schema_version').pluck();
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
        statement = withRowsBuiltHere(database.prepare(sql), () => schemaVersion.get());
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

/**
 * A statement whose rows are read as arrays and made objects here, with the column names read
 * once: better-sqlite3 makes each row's object through V8's C++ API, one property and one
 * name string at a time, which costs more than the query for a page of wide rows (51 approval
 * rows of 30 columns: about 1 ms against 0.5 ms). The rows are the same objects: each column's
 * name as SQLite gives it, in order, a later column of the same name winning. The names are
 * read again whenever the schema changed since they were read (SQLite re-prepares a statement
 * whose tables changed, and `select *` then has other columns), or a row has another number of
 * columns than there are names.
 */
function withRowsBuiltHere(statement: Database.Statement, schemaVersion: () => unknown): SqliteStatement {
  if (!statement.reader) return statement as unknown as SqliteStatement;
  statement.raw(true);
  let names: string[] = [];
  let namesOfVersion: unknown;
  // Read before the statement runs: a change between the two is seen by the next run.
  const columnsNow = () => {
    const version = schemaVersion();
    return (values: readonly unknown[]) => {
      if (version !== namesOfVersion || values.length !== names.length) {
        names = statement.columns().map((column) => column.name);
        namesOfVersion = version;
      }
      const row: Record<string, unknown> = {};
      for (let index = 0; index < names.length; index++) row[names[index] as string] = values[index];
      return row;
    };
  };
  return {
    reader: true,
    all: (parameters) => {
      const toRow = columnsNow();
      return (statement.all(parameters) as unknown[][]).map(toRow);
    },
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      const toRow = columnsNow();
      for (const values of statement.iterate(parameters) as Iterable<unknown[]>) yield toRow(values);
    },
  };
}
