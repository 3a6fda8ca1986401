import type { NextRequest } from 'next/server';
import { withDecisionOutcome } from '@/lib/approvals';
import { withSession } from '@/lib/auth/with-session';
import { carryOutDecision } from '@/lib/chat/carry-out-decision';
import { describeZodError, jsonError, jsonWithLength, readJsonBody } from '@/lib/http/json';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';
import { approvalDecisionSchema } from './schema';

/** A person's decision on a pending approval: the approval card's and any HTTP client's. */
export const POST = withUnavailableAs503(
  withSession(async (request: NextRequest, user) => {
    const body = await readJsonBody(request, { maxBytes: 16_384 });
    if (!body.ok) return body.response;
    const decision = approvalDecisionSchema.safeParse(body.value);
    if (!decision.success) return jsonError(400, describeZodError(decision.error));
    // The answer says what the click did: the call's outcome once it has run or ended.
    const result = await withDecisionOutcome(
      decision.data.approvalId,
      await carryOutDecision(decision.data, user),
      user,
    );
    return jsonWithLength(result.body, { status: result.status });
  }),
);
