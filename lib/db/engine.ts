import { type Kysely, PostgresAdapter } from 'kysely';
import type { DatabaseSchema } from './schema';

/** The query layer every repository function takes as its first argument (a transaction too). */
export type Db = Kysely<DatabaseSchema>;

/** Which engine a `Db` talks to. */
export type DatabaseEngine = 'sqlite' | 'postgres';

/*
 * The engine is marked on the adapter, under a registered symbol, when the database is
 * opened. A class check alone is not enough: the server's start-up hook is bundled apart
 * from the routes, each bundle with its own copy of Kysely, and a database opened by one
 * is used by the other, where `instanceof PostgresAdapter` is false for a Postgres one.
 */
const engineMark = Symbol.for('toolgate.databaseEngine');

/** Marks `db` (and every transaction of it: they share its adapter) as talking to `engine`. */
export function markEngine<SCHEMA>(db: Kysely<SCHEMA>, engine: DatabaseEngine): void {
  Object.defineProperty(db.getExecutor().adapter, engineMark, { value: engine });
}

/** The engine behind `db`, read from its adapter so it holds for transactions too. */
export function engineOf<SCHEMA>(db: Kysely<SCHEMA>): DatabaseEngine {
  const adapter = db.getExecutor().adapter;
  const marked = (adapter as unknown as Record<symbol, unknown>)[engineMark];
  if (marked === 'postgres' || marked === 'sqlite') return marked;
  return adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** True for a `postgres://` or `postgresql://` URL. */
export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url);
}
