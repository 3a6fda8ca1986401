import type { NextRequest } from 'next/server';
import { revokeGrant } from '@/lib/approvals';
import { withSession } from '@/lib/auth/with-session';
import { getDb } from '@/lib/db';
import { jsonError } from '@/lib/http/json';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';

/** Revokes one of the caller's standing grants: `{ revoked: true }`, or 404 when none is in force. */
export const DELETE = withUnavailableAs503(
  withSession(async (_request: NextRequest, user, { params }: { params: Promise<{ grantId: string }> }) => {
    const { grantId } = await params;
    const revoked = await revokeGrant(await getDb(), user.id, grantId);
    return revoked ? Response.json({ revoked: true }) : jsonError(404, 'No such standing grant in force');
  }),
);
