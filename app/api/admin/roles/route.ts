import type { NextRequest } from 'next/server';
import { listRoleHolders } from '@/lib/auth/role-admin';
import { withSession } from '@/lib/auth/with-session';
import { jsonError } from '@/lib/http/json';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';
import { parseRoleListQuery } from './schema';

export const dynamic = 'force-dynamic';

/**
 * Accounts (never guests) by email with their stored roles, for verified admins (404 for
 * anyone else): `?q=` (part of the email), `offset`, `limit` (1..100, default 50) →
 * `{ users: [{ id, email, name, emailVerified, roles, adminByConfig }], nextOffset }`.
 */
export const GET = withUnavailableAs503(
  withSession(
    async (request: NextRequest) => {
      const parsed = parseRoleListQuery(request.nextUrl.searchParams);
      if (!parsed.success) return jsonError(400, parsed.error);
      const { q, offset, limit } = parsed.data;
      return Response.json(await listRoleHolders({ emailContains: q, offset, limit }));
    },
    { audience: 'hidden-admin' },
  ),
);
