import type { NextRequest } from 'next/server';
import { localeOfRequest } from '@/app/request-locale';
import { listApprovalsToDecide } from '@/lib/approvals';
import { withSession } from '@/lib/auth/with-session';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';

/** The approvals this user can decide now, oldest first, a page at a time (`?cursor=…&limit=…`, `nextCursor`). */
export const GET = withUnavailableAs503(
  withSession(async (request: NextRequest, user) => {
    const result = await listApprovalsToDecide(
      { ...user, language: localeOfRequest(request) },
      Object.fromEntries(request.nextUrl.searchParams),
    );
    return Response.json(result.body, { status: result.status });
  }),
);
