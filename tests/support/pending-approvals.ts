import type { Db } from '../../lib/db/engine';

/** One waiting call as the approvers' inbox reads it, written without a chat turn. */
export type PendingApproval = {
  id: string;
  ownerId: string | null;
  /** ISO 8601: the inbox lists oldest first. */
  createdAt: string;
  expiresAt: number;
  toolName: string;
  worker: string;
  input: unknown;
  excerpt: string;
  ruleLabel?: string;
  /** Its open steps, in order (a 2-of-2 rule asks one role twice). */
  steps: readonly ({ kind: 'requester' } | { kind: 'role'; role: string })[];
};

/**
 * Writes pending approvals and their open steps straight to the database, 500 rows a
 * statement: thousands of waiting calls in a second, for the inbox's tests and its benchmark.
 * Relative imports: the benchmark runs this outside the test runner.
 */
export async function writePendingApprovals(db: Db, approvals: readonly PendingApproval[]): Promise<void> {
  for (let start = 0; start < approvals.length; start += 500) {
    const batch = approvals.slice(start, start + 500);
    await db
      .insertInto('approvals')
      .values(
        batch.map((approval) => ({
          id: approval.id,
          chat_id: `chat-${approval.id}`,
          owner_id: approval.ownerId,
          message_id: `m-${approval.id}`,
          tool_call_id: `call-${approval.id}`,
          tool_name: approval.toolName,
          worker: approval.worker,
          input: JSON.stringify(approval.input),
          expires_at: approval.expiresAt,
          status: 'pending',
          claimed: 0,
          trace_parent: null,
          rule_label: approval.ruleLabel ?? null,
          excerpt: approval.excerpt,
          created_at: approval.createdAt,
          updated_at: approval.createdAt,
        })),
      )
      .execute();
    await db
      .insertInto('approval_steps')
      .values(
        batch.flatMap((approval) =>
          approval.steps.map((step, position) => ({
            approval_id: approval.id,
            position,
            kind: step.kind,
            role: step.kind === 'role' ? step.role : null,
            decision: null,
            decided_by: null,
            decided_at: null,
          })),
        ),
      )
      .execute();
  }
}
