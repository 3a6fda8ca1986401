import { getDb, listTickets } from '@/lib/db';

export const dynamic = 'force-dynamic';

/** Every ticket, newest first. */
export function GET() {
  return Response.json(listTickets(getDb()));
}
