import type { NextRequest } from 'next/server';
import { extendApprovalDeadline } from '@/lib/approvals';
import { withSession } from '@/lib/auth/with-session';
import { describeZodError, jsonError, readJsonBody } from '@/lib/http/json';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';
import { approvalExtensionSchema } from '../schema';

/** More time for a pending approval (at most three times): `{ expiresAt, remainingMs }`. */
export const POST = withUnavailableAs503(
  withSession(async (request: NextRequest, user) => {
    const body = await readJsonBody(request, { maxBytes: 1024 });
    if (!body.ok) return body.response;
    const extension = approvalExtensionSchema.safeParse(body.value);
    if (!extension.success) return jsonError(400, describeZodError(extension.error));
    const result = await extendApprovalDeadline(extension.data, user.id);
    return Response.json(result.body, { status: result.status });
  }),
);
