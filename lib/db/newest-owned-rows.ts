import type { Selectable } from 'kysely';
import type { Db } from './engine';
import type { DatabaseSchema } from './schema';

/** Tables whose rows belong to one user, carry a status and are listed newest first. */
type OwnedTable = 'tickets' | 'todos';

/**
 * One user's rows of `table`, newest first, at most `limit`; only those in `status` when it is
 * given. The one query the tickets and to-dos lists (and their similar-title previews) share.
 */
export async function newestOwnedRows<TABLE extends OwnedTable>(
  db: Db,
  table: TABLE,
  {
    userId,
    status,
    limit,
    beforeId,
  }: {
    userId: string;
    status?: 'open';
    limit: number /** Only rows older than this id (a page's cursor). */;
    beforeId?: number;
  },
): Promise<Selectable<DatabaseSchema[TABLE]>[]> {
  let query = db
    .selectFrom(table as OwnedTable)
    .selectAll()
    .where('user_id', '=', userId);
  if (status !== undefined) query = query.where('status', '=', status);
  if (beforeId !== undefined) query = query.where('id', '<', beforeId);
  // The query is built over both tables' common columns; the rows are the asked table's.
  return (await query.orderBy('id', 'desc').limit(limit).execute()) as Selectable<DatabaseSchema[TABLE]>[];
}
