import { sql } from 'kysely';
import { type Db, engineOf } from './engine';

/**
 * Runs `work` in a transaction that writes. On SQLite it is `BEGIN IMMEDIATE`: the write
 * lock is taken up front, so two processes that read and then write wait for each other
 * instead of failing with SQLITE_BUSY. `work` must use the handle it is given, never `db`.
 */
export async function writeTransaction<RESULT>(
  db: Db,
  work: (transaction: Db) => Promise<RESULT>,
): Promise<RESULT> {
  if (engineOf(db) === 'postgres') return db.transaction().execute(work);
  return db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    try {
      const result = await work(connection);
      await sql`commit`.execute(connection);
      return result;
    } catch (error) {
      await sql`rollback`.execute(connection).catch(() => undefined);
      throw error;
    }
  });
}
