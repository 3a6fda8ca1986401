import { withSession } from '@/lib/auth/with-session';
import { getDb, listTickets } from '@/lib/db';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';

export const dynamic = 'force-dynamic';

/** This user's tickets, newest first. */
export const GET = withUnavailableAs503(
  withSession(async (_request, user) => Response.json(await listTickets(await getDb(), { userId: user.id }))),
);
