import type { NextRequest } from 'next/server';
import { readAuditLog } from '@/lib/chat/read-audit-log';
import { jsonError } from '@/lib/http/json';
import { parseAuditQuery } from './schema';

export const dynamic = 'force-dynamic';

/** The tool-call audit log, newest first: `?chatId=&tool=&outcome=&limit=` (1..500, default 100). */
export function GET(request: NextRequest) {
  const parsed = parseAuditQuery(request.nextUrl.searchParams);
  if (!parsed.success) return jsonError(400, parsed.error);
  return Response.json(readAuditLog(parsed.data));
}
