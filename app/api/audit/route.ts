import type { NextRequest } from 'next/server';
import { readAuditLog } from '@/lib/audit/read-audit-log';
import { withSession } from '@/lib/auth/with-session';
import { jsonError } from '@/lib/http/json';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';
import { parseAuditQuery } from './schema';

export const dynamic = 'force-dynamic';

/**
 * The tool-call audit log of every user, for admins (403 for anyone else), newest first:
 * `?userId=&chatId=&tool=&outcome=&limit=` (1..500, default 100).
 */
export const GET = withUnavailableAs503(
  withSession(
    async (request: NextRequest) => {
      const parsed = parseAuditQuery(request.nextUrl.searchParams);
      if (!parsed.success) return jsonError(400, parsed.error);
      return Response.json(await readAuditLog(parsed.data));
    },
    { audience: 'admin' },
  ),
);
