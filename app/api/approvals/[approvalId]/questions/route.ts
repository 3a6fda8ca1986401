import type { NextRequest } from 'next/server';
import { askRequester } from '@/lib/approvals';
import { withSession } from '@/lib/auth/with-session';
import { describeZodError, jsonError, jsonWithLength, readJsonBody } from '@/lib/http/json';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';
import { approvalIdSchema } from '../../schema';
import { askRequesterSchema } from './schema';

type Context = { params: Promise<{ approvalId: string }> };

/**
 * An approver asks the requester of a waiting call a question (`{ question }`): 201
 * `{ questionId, askedAt }`; 404 for an approval the caller may not see, 403 for one they see
 * but may not decide, 409 once it no longer waits, 400 for a malformed body.
 */
export const POST = withUnavailableAs503(
  withSession(async (request: NextRequest, user, context: Context) => {
    const id = approvalIdSchema.safeParse((await context.params).approvalId);
    if (!id.success) return jsonError(404, 'No approval with that id that you may see');
    const body = await readJsonBody(request, { maxBytes: 16_384 });
    if (!body.ok) return body.response;
    const parsed = askRequesterSchema.safeParse(body.value);
    if (!parsed.success) return jsonError(400, describeZodError(parsed.error));
    const result = await askRequester({ approvalId: id.data, question: parsed.data.question }, user);
    return jsonWithLength(result.body, { status: result.status });
  }),
);
