'use server';

import { headers } from 'next/headers';
import { askRequesterSchema } from '@/app/api/approvals/[approvalId]/questions/schema';
import { approvalIdSchema } from '@/app/api/approvals/schema';
import { approvalDecisionSchema, approvalExtensionSchema } from '@/app/api/chat/approve/schema';
import {
  type ApprovalDecisionResult,
  type ApprovalExtensionResult,
  type AskRequesterResult,
  askRequester,
  extendApprovalDeadline,
} from '@/lib/approvals';
import { getSessionUser } from '@/lib/auth/session-user';
import { carryOutDecision } from '@/lib/chat/carry-out-decision';
import { describeZodError } from '@/lib/http/json';
import { maxJsonDepth, nestsDeeperThan } from '@/lib/http/json-depth';
import { runWithClientAddress } from '@/lib/http/request-address';

/*
 * The page's decisions: every decision a card makes (allow, deny, edit, a note, "for this chat",
 * a standing grant), its "more time" and an approver's question to the requester come through
 * these server actions. Each parses the same
 * body with the same schema as `POST /api/chat/approve` (and `/extend`) and calls the same
 * function, so the page and every HTTP client are answered alike; the route stays the contract
 * for other clients. The session is read from the request's cookies, never from the body.
 */

/** What an action answers: the route's status and JSON body, as a value. */
export type ActionAnswer<BODY> = { status: number; body: BODY };

/** The largest body a decision may carry, as for the route (16 KiB of JSON). */
const maxDecisionBytes = 16_384;

const noSession = { status: 401, body: { error: 'No session: reload the page' } } as const;

function tooLargeOrDeep(body: unknown): ActionAnswer<{ error: string }> | undefined {
  if (nestsDeeperThan(body, maxJsonDepth))
    return { status: 400, body: { error: `The body nests deeper than ${maxJsonDepth} levels` } };
  const size = Buffer.byteLength(JSON.stringify(body) ?? '', 'utf8');
  if (size > maxDecisionBytes)
    return { status: 413, body: { error: `The body is larger than ${maxDecisionBytes} bytes` } };
  return undefined;
}

/** A decision on an approval card, as `POST /api/chat/approve` takes it. */
export async function decideApprovalAction(
  body: unknown,
): Promise<ActionAnswer<ApprovalDecisionResult['body'] | { error: string }>> {
  const requestHeaders = await headers();
  const user = await getSessionUser(requestHeaders);
  if (user === undefined) return noSession;
  const refused = tooLargeOrDeep(body);
  if (refused !== undefined) return refused;
  const decision = approvalDecisionSchema.safeParse(body);
  if (!decision.success) return { status: 400, body: { error: describeZodError(decision.error) } };
  const result = await runWithClientAddress(requestHeaders, () => carryOutDecision(decision.data, user));
  return { status: result.status, body: result.body };
}

/** More time for a card, as `POST /api/chat/approve/extend` takes it. */
export async function extendApprovalAction(
  body: unknown,
): Promise<ActionAnswer<ApprovalExtensionResult['body'] | { error: string }>> {
  const requestHeaders = await headers();
  const user = await getSessionUser(requestHeaders);
  if (user === undefined) return noSession;
  const refused = tooLargeOrDeep(body);
  if (refused !== undefined) return refused;
  const extension = approvalExtensionSchema.safeParse(body);
  if (!extension.success) return { status: 400, body: { error: describeZodError(extension.error) } };
  const result = await runWithClientAddress(requestHeaders, () =>
    extendApprovalDeadline(extension.data, user.id),
  );
  return { status: result.status, body: result.body };
}

/** An approver's question to the requester, as `POST /api/approvals/:approvalId/questions` takes it. */
export async function askRequesterAction(
  approvalId: unknown,
  body: unknown,
): Promise<ActionAnswer<AskRequesterResult['body'] | { error: string }>> {
  const requestHeaders = await headers();
  const user = await getSessionUser(requestHeaders);
  if (user === undefined) return noSession;
  const refused = tooLargeOrDeep(body);
  if (refused !== undefined) return refused;
  const id = approvalIdSchema.safeParse(approvalId);
  if (!id.success) return { status: 404, body: { error: 'No approval with that id that you may see' } };
  const question = askRequesterSchema.safeParse(body);
  if (!question.success) return { status: 400, body: { error: describeZodError(question.error) } };
  const result = await runWithClientAddress(requestHeaders, () =>
    askRequester({ approvalId: id.data, question: question.data.question }, user),
  );
  return { status: result.status, body: result.body };
}
