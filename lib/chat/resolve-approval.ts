import 'server-only';
import { z } from 'zod';
import { describeZodError } from '@/lib/http/json';
import { getApprovalRegistry } from '@/lib/server/stores';
import { StoreUnavailableError } from '@/lib/stores';

/** A person's decision on one approval card: the `/api/chat/approve` body and the server action's input. */
export const approvalDecisionSchema = z.strictObject({
  approvalId: z.string().min(1).max(128),
  sessionId: z.string().min(1).max(128),
  approved: z.boolean(),
});

/** How a decision was answered: the route sends `body` with `status`; the server action returns `body`. */
export type ApprovalDecisionResult =
  | { status: 200; body: { status: 'approved' | 'denied' } }
  | { status: 400 | 404 | 503; body: { error: string } };

/**
 * Validates a decision and wakes the call behind `approvalId`. The route and the
 * server action both come here, so they cannot disagree. An unknown id, another
 * session or owner, and an approval already settled all answer the same 404, so
 * a guess learns nothing.
 */
export async function decideApproval(input: unknown, ownerId?: string): Promise<ApprovalDecisionResult> {
  const parsed = approvalDecisionSchema.safeParse(input);
  if (!parsed.success) return { status: 400, body: { error: describeZodError(parsed.error) } };
  const { approvalId, sessionId, approved } = parsed.data;
  let woken: boolean;
  try {
    woken = await getApprovalRegistry().resolve(approvalId, sessionId, approved, ownerId);
  } catch (error) {
    // The waiting call denies itself on its own timeout; say so rather than 500.
    if (error instanceof StoreUnavailableError) {
      return {
        status: 503,
        body: { error: 'Approvals are unavailable right now; the call will expire and be denied' },
      };
    }
    throw error;
  }
  if (!woken) return { status: 404, body: { error: 'No pending approval with that id in this session' } };
  return { status: 200, body: { status: approved ? 'approved' : 'denied' } };
}
