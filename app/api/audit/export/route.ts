import type { NextRequest } from 'next/server';
import { streamAuditExport } from '@/lib/audit/read-audit-log';
import { withSession } from '@/lib/auth/with-session';
import { jsonError } from '@/lib/http/json';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';
import { parseAuditExportQuery } from './schema';

export const dynamic = 'force-dynamic';

/**
 * The whole audit log for admins (403 for anyone else) as JSON Lines, oldest first, each
 * row with its place in the hash chain and its hash: `?since=&until=` (ISO 8601) limit it
 * to the rows that joined the chain in that window. `npm run audit:verify -- file` checks it.
 */
export const GET = withUnavailableAs503(
  withSession(
    async (request: NextRequest) => {
      const parsed = parseAuditExportQuery(request.nextUrl.searchParams);
      if (!parsed.success) return jsonError(400, parsed.error);
      return new Response(await streamAuditExport(parsed.data), {
        headers: {
          'Content-Type': 'application/x-ndjson; charset=utf-8',
          'Content-Disposition': 'attachment; filename="toolgate-audit.jsonl"',
          'Cache-Control': 'no-store',
        },
      });
    },
    { audience: 'admin' },
  ),
);
