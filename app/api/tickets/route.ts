import type { NextRequest } from 'next/server';
import { withSession } from '@/lib/auth/with-session';
import { getDb, listTickets } from '@/lib/db';
import { newestFirstPageOf, newestFirstPageResponse } from '@/lib/http/newest-first-page';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';

export const dynamic = 'force-dynamic';

/**
 * This user's tickets, newest first, a page at a time (`?limit=`, at most and by default 100;
 * `?cursor=` from the `Link: rel="next"` header of the page before).
 */
export const GET = withUnavailableAs503(
  withSession(async (request: NextRequest, user) => {
    const page = newestFirstPageOf(request.nextUrl.searchParams);
    if ('response' in page) return page.response;
    const rows = await listTickets(await getDb(), { userId: user.id, ...page, limit: page.limit + 1 });
    return newestFirstPageResponse('/api/tickets', rows, page, (ticket) =>
      Number(ticket.ticketId.replace(/^TK-/, '')),
    );
  }),
);
