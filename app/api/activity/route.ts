import type { NextRequest } from 'next/server';
import { readAuditLog } from '@/lib/audit/read-audit-log';
import { withSession } from '@/lib/auth/with-session';
import { jsonError } from '@/lib/http/json';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';
import { parseAuditQuery } from '../audit/schema';

export const dynamic = 'force-dynamic';

/**
 * The caller's own tool calls, newest first: the audit log filtered to this user,
 * with the same `?chatId=&tool=&outcome=&limit=` filters (a `userId` is ignored).
 */
export const GET = withUnavailableAs503(
  withSession(async (request: NextRequest, user) => {
    const parsed = parseAuditQuery(request.nextUrl.searchParams);
    if (!parsed.success) return jsonError(400, parsed.error);
    return Response.json(await readAuditLog({ ...parsed.data, userId: user.id }));
  }),
);
