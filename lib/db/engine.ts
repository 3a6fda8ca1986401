import { type Kysely, PostgresAdapter } from 'kysely';
import type { DatabaseSchema } from './schema';

/** The query layer every repository function takes as its first argument (a transaction too). */
export type Db = Kysely<DatabaseSchema>;

/** Which engine a `Db` talks to. */
export type DatabaseEngine = 'sqlite' | 'postgres';

/** The engine behind `db`, read from its adapter so it holds for transactions too. */
export function engineOf<SCHEMA>(db: Kysely<SCHEMA>): DatabaseEngine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** True for a `postgres://` or `postgresql://` URL. */
export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url);
}
