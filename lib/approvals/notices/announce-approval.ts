import 'server-only';
import { getConfig } from '@/lib/config';
import type { Db } from '@/lib/db/engine';
import { currentClientAddress } from '@/lib/http/request-address';
import { spendWebhookBudget } from '@/lib/server/webhook-budget';
import { countDroppedWebhookEvent } from '@/lib/telemetry/metrics';
import { enqueueApprovalEvent, hasWebhookDelivery } from '@/lib/webhooks';
import { getApproval, getApprovalSteps, userNamesById } from '../life-cycle/approval-rows';
import type { ApprovalStatus } from '../life-cycle/approval-states';
import { approverSummary } from './approver-text';

/**
 * Queues the approval webhook event (`approval.requested` when a call starts waiting,
 * `approval.settled` when it leaves `pending`) for an approval with a role step; nothing
 * for one only its requester decides. A request spends one event of its requester's and its
 * client address's webhook budgets, and is dropped (logged, counted) past them; a settlement
 * is queued only when its request was. Fire and forget: it never delays or fails the
 * decision (`enqueueApprovalEvent` logs what it cannot queue), and it reads the row after
 * the caller's write has committed. Without `TOOLGATE_APPROVAL_WEBHOOK_URL` it reads nothing.
 */
export function announceApproval(
  db: Db,
  approvalId: string,
  change:
    | { type: 'approval.requested' }
    | { type: 'approval.escalated' }
    | { type: 'approval.settled'; status: ApprovalStatus },
): void {
  if (getConfig().TOOLGATE_APPROVAL_WEBHOOK_URL === undefined) return;
  void (async () => {
    const row = await getApproval(db, approvalId);
    if (row === undefined) return;
    const steps = await getApprovalSteps(db, approvalId);
    const roles = [...new Set(steps.flatMap((step) => (step.kind === 'role' ? [step.role] : [])))];
    if (roles.length === 0) return;
    if (change.type === 'approval.requested') {
      const spent = await spendWebhookBudget({ userId: row.ownerId ?? '', address: currentClientAddress() });
      if (spent !== undefined) {
        countDroppedWebhookEvent(spent);
        console.warn(
          `[toolgate] webhook: approval.requested of approval ${approvalId} not queued: the ${spent === 'user' ? "requester's" : "client address's"} webhook budget is spent (${spent === 'user' ? 'TOOLGATE_WEBHOOK_USER_LIMIT' : 'TOOLGATE_WEBHOOK_ADDRESS_LIMIT'}); approvers still find it in their inbox`,
        );
        return;
      }
    } else if (
      !(await hasWebhookDelivery(db, {
        approvalId,
        eventType: 'approval.requested',
        // A minute's margin for clocks of instances that disagree a little.
        since: Date.parse(row.createdAt) - 60_000,
      }))
    ) {
      // Its request was never announced (over budget): the receiver has nothing to settle.
      return;
    }
    const names = row.ownerId === null ? new Map<string, string>() : await userNamesById(db, [row.ownerId]);
    await enqueueApprovalEvent(db, {
      type: change.type,
      approvalId,
      tool: row.toolName,
      summary: approverSummary(row.toolName, row.editedInput ?? row.input)?.en ?? row.toolName,
      roles,
      // The name comes revealed from `userNamesById`, as on the approver's page.
      requester: { name: (row.ownerId !== null && names.get(row.ownerId)) || '' },
      expiresAt: row.expiresAt,
      ...(change.type === 'approval.settled' && { status: change.status }),
    });
  })().catch((error: unknown) =>
    console.error(`[toolgate] webhook: could not announce approval ${approvalId}:`, error),
  );
}
