import type { NextRequest } from 'next/server';
import { withSession } from '@/lib/auth/with-session';
import { getDb, selectTodos } from '@/lib/db';
import { newestFirstPageOf, newestFirstPageResponse } from '@/lib/http/newest-first-page';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';

export const dynamic = 'force-dynamic';

/**
 * This user's to-dos, newest first, a page at a time (`?limit=`, at most and by default 100;
 * `?cursor=` from the `Link: rel="next"` header of the page before).
 */
export const GET = withUnavailableAs503(
  withSession(async (request: NextRequest, user) => {
    const page = newestFirstPageOf(request.nextUrl.searchParams);
    if ('response' in page) return page.response;
    const rows = await selectTodos(await getDb(), { userId: user.id, ...page, limit: page.limit + 1 });
    return newestFirstPageResponse('/api/todos', rows, page, (todo) => todo.id);
  }),
);
