import type { NextRequest } from 'next/server';
import { decodeApprovalCursor, listApprovalsDecidedByMe } from '@/lib/approvals';
import { withSession } from '@/lib/auth/with-session';
import { describeZodError, jsonError } from '@/lib/http/json';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';
import { approvalListQuerySchema } from '../schema';

/** The approvals this user decided a step of, newest decision first, a page at a time (`nextCursor`). */
export const GET = withUnavailableAs503(
  withSession(async (request: NextRequest, user) => {
    const parsed = approvalListQuerySchema.safeParse(Object.fromEntries(request.nextUrl.searchParams));
    if (!parsed.success) return jsonError(400, describeZodError(parsed.error));
    const { cursor, limit } = parsed.data;
    const after = cursor === undefined ? undefined : decodeApprovalCursor(cursor);
    if (cursor !== undefined && after === undefined)
      return jsonError(400, 'cursor: not a cursor this endpoint gave');
    return Response.json(await listApprovalsDecidedByMe(user, { after, limit }));
  }),
);
