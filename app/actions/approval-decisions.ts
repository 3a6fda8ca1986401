'use server';

import { headers } from 'next/headers';
import { approvalDecisionSchema, approvalExtensionSchema } from '@/app/api/chat/approve/schema';
import {
  type ApprovalDecisionResult,
  type ApprovalExtensionResult,
  extendApprovalDeadline,
} from '@/lib/approvals';
import { getSessionUser } from '@/lib/auth/session-user';
import { carryOutDecision } from '@/lib/chat/carry-out-decision';
import { describeZodError } from '@/lib/http/json';
import { maxJsonDepth, nestsDeeperThan } from '@/lib/http/json-depth';
import { runWithClientAddress } from '@/lib/http/request-address';

/*
 * The page's decisions: every decision a card makes (allow, deny, edit, a note, "for this chat",
 * a standing grant) and its "more time" come through these server actions. Each parses the same
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
