import { getDb, listTodos } from '@/lib/db';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';

export const dynamic = 'force-dynamic';

/** Every todo, newest first. */
export const GET = withUnavailableAs503(async () => {
  return Response.json(await listTodos(await getDb()));
});
