import 'server-only';
import { z } from 'zod';
import { getApproval, getDb, transitionApproval } from '@/lib/db';
import { describeZodError } from '@/lib/http/json';
import { getApprovalRegistry } from '@/lib/server/stores';
import { continueParkedTurn } from './continue-parked-turn';
import { settleChatApprovals } from './settle-tool-parts';

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

/** How long a woken turn has to take its decision on before this request continues it instead. */
const takeOverAfterMs = 2_000;

const notFound: ApprovalDecisionResult = {
  status: 404,
  body: { error: 'No pending approval with that id in this session' },
};

/**
 * Records a decision and sees that it is carried out. The route and the server
 * action both come here, so they cannot disagree.
 *
 * The decision is a compare-and-set on the approval row (pending → approved / denied,
 * only before the deadline, only for its chat and owner): of double clicks, two tabs
 * and ten concurrent requests exactly one wins; the rest, an unknown id, another
 * chat or owner, a settled or expired approval all answer the same 404. The winner
 * wakes the waiting call wherever it waits; if no turn takes the decision on (its
 * process is gone), the turn is continued here from the database.
 */
export async function decideApproval(input: unknown, ownerId?: string): Promise<ApprovalDecisionResult> {
  const parsed = approvalDecisionSchema.safeParse(input);
  if (!parsed.success) return { status: 400, body: { error: describeZodError(parsed.error) } };
  const { approvalId, sessionId, approved } = parsed.data;
  const db = await getDb();
  const row = await getApproval(db, approvalId);
  if (row === undefined || row.chatId !== sessionId || (row.ownerId !== null && row.ownerId !== ownerId)) {
    return notFound;
  }
  const now = Date.now();
  const won = await transitionApproval(db, approvalId, 'pending', approved ? 'approved' : 'denied', {
    chatId: sessionId,
    ownerId: ownerId ?? null,
    before: now,
  });
  if (!won) {
    // Past its deadline: settle it now, the timer that would have may be gone with its server.
    if (row.status === 'pending' && row.expiresAt <= now) await settleChatApprovals(db, sessionId, { now });
    return notFound;
  }

  let woken = false;
  try {
    woken = await getApprovalRegistry().resolve(approvalId, sessionId, approved, row.ownerId ?? undefined);
  } catch {
    // Redis unreachable: the call cannot be woken; the decision is on the row, so continue here.
  }
  if (!(woken && (await takenOn(approvalId)))) await continueParkedTurn(db, approvalId);
  return { status: 200, body: { status: approved ? 'approved' : 'denied' } };
}

/** Whether the woken turn took the decision on within `takeOverAfterMs` (else its server is gone). */
async function takenOn(approvalId: string): Promise<boolean> {
  const db = await getDb();
  const deadline = Date.now() + takeOverAfterMs;
  for (;;) {
    const row = await getApproval(db, approvalId);
    if (row === undefined || row.claimed) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
