import type { NextRequest } from 'next/server';
import { listStandingGrants } from '@/lib/approvals';
import { withSession } from '@/lib/auth/with-session';
import { getDb } from '@/lib/db';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';

/**
 * The caller's standing grants in force, newest first: `{ grants: [{ id, toolName, scope,
 * chatId?, when?, approvalId, createdAt, expiresAt, remainingMs }] }`.
 */
export const GET = withUnavailableAs503(
  withSession(async (_request: NextRequest, user) => {
    const grants = await listStandingGrants(await getDb(), user.id);
    return Response.json({ grants });
  }),
);
