import { getDb, listTickets } from '@/lib/db';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';

export const dynamic = 'force-dynamic';

/** Every ticket, newest first. */
export const GET = withUnavailableAs503(async () => {
  return Response.json(await listTickets(await getDb()));
});
