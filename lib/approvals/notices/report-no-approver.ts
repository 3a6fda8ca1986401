import 'server-only';
import { randomUUID } from 'node:crypto';
import { getConfig } from '@/lib/config';
import type { Db } from '@/lib/db/engine';
import { currentClientAddress } from '@/lib/http/request-address';
import { spendWebhookBudget } from '@/lib/server/webhook-budget';
import { countDroppedWebhookEvent } from '@/lib/telemetry/metrics';
import { enqueueApprovalEvent } from '@/lib/webhooks';
import type { NoApproverReport } from '../life-cycle/approval-notices';
import { userNamesById } from '../life-cycle/approval-rows';
import { approverSummary } from './approver-text';

/**
 * Tells the operators that a call was refused with `no_approver`: a warning in the log, and,
 * with `TOOLGATE_APPROVAL_WEBHOOK_URL`, an `approval.unfillable` webhook event (its
 * `approvalId` a fresh id, there being no approval; `status: "no_approver"`), within the
 * requester's webhook budget. Fire and forget: it never delays or fails the refusal.
 */
export function reportNoApprover(db: Db, report: NoApproverReport): void {
  const roles = [...new Set(report.short.flatMap((short) => short.roles))];
  const told = report.short
    .map(
      (short) =>
        `${short.roles.map((role) => `"${role}"`).join(' and ')} (${short.needed} different people needed, ${short.holders} verified holder(s) besides the requester)`,
    )
    .join(', ');
  console.warn(
    `[toolgate] policy: a ${report.toolName} call was refused at once (no_approver): ${report.rule} asks ${told}; grant the role or change the rule`,
  );
  if (getConfig().TOOLGATE_APPROVAL_WEBHOOK_URL === undefined) return;
  void (async () => {
    const spent = await spendWebhookBudget({ userId: report.requesterId, address: currentClientAddress() });
    if (spent !== undefined) {
      countDroppedWebhookEvent(spent);
      return;
    }
    const names = await userNamesById(db, [report.requesterId]);
    await enqueueApprovalEvent(db, {
      type: 'approval.unfillable',
      approvalId: `unfillable-${randomUUID()}`,
      tool: report.toolName,
      summary: approverSummary(report.toolName, report.input)?.en ?? report.toolName,
      roles,
      requester: { name: names.get(report.requesterId) ?? '' },
      expiresAt: Date.now(),
      status: 'no_approver',
    });
  })().catch((error: unknown) =>
    console.error('[toolgate] webhook: could not announce a no_approver refusal:', error),
  );
}
