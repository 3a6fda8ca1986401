import 'server-only';
import { getApprovalRegistry } from '@/lib/server/stores';

/** A person's decision on one approval card. */
export type ApprovalDecisionInput = {
  approvalId: string;
  sessionId: string;
  approved: boolean;
  ownerId?: string;
};

/**
 * Wakes the call behind `approvalId` with a person's decision. The route and the
 * server action both come here, so they cannot disagree. Returns null for an
 * unknown id, another session or owner, or an approval already settled: callers
 * answer all of them alike (404) so a guess learns nothing.
 */
export async function resolveApproval({
  approvalId,
  sessionId,
  approved,
  ownerId,
}: ApprovalDecisionInput): Promise<{ status: 'approved' | 'denied' } | null> {
  const woken = await getApprovalRegistry().resolve(approvalId, sessionId, approved, ownerId);
  return woken ? { status: approved ? 'approved' : 'denied' } : null;
}
