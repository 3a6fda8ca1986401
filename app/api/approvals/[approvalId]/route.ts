import type { NextRequest } from 'next/server';
import { localeOfRequest } from '@/app/request-locale';
import { readApproval } from '@/lib/approvals';
import { withSession } from '@/lib/auth/with-session';
import { jsonError } from '@/lib/http/json';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';
import { approvalIdSchema } from '../schema';

type Context = { params: Promise<{ approvalId: string }> };

/** One approval, for its requester and anyone who may fill one of its steps; 404 for anyone else. */
export const GET = withUnavailableAs503(
  withSession(async (request: NextRequest, user, context: Context) => {
    const id = approvalIdSchema.safeParse((await context.params).approvalId);
    const view = id.success
      ? await readApproval(id.data, { ...user, language: localeOfRequest(request) })
      : undefined;
    if (view === undefined) return jsonError(404, 'No approval with that id that you may see');
    return Response.json(view);
  }),
);
