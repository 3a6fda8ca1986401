import type { NextRequest } from 'next/server';
import { withSession } from '@/lib/auth/with-session';
import { carryOutDecision } from '@/lib/chat/carry-out-decision';
import { readJsonBody } from '@/lib/http/json';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';

/** A person's decision on a pending approval, for HTTP clients. */
export const POST = withUnavailableAs503(
  withSession(async (request: NextRequest, user) => {
    const body = await readJsonBody(request, { maxBytes: 16_384 });
    if (!body.ok) return body.response;
    const result = await carryOutDecision(body.value, user);
    return Response.json(result.body, { status: result.status });
  }),
);
