import type { NextRequest } from 'next/server';
import { extendApprovalDeadline } from '@/lib/approvals';
import { withSession } from '@/lib/auth/with-session';
import { readJsonBody } from '@/lib/http/json';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';

/** More time for a pending approval (at most three times): `{ expiresAt, remainingMs }`. */
export const POST = withUnavailableAs503(
  withSession(async (request: NextRequest, user) => {
    const body = await readJsonBody(request, { maxBytes: 1024 });
    if (!body.ok) return body.response;
    const result = await extendApprovalDeadline(body.value, user.id);
    return Response.json(result.body, { status: result.status });
  }),
);
