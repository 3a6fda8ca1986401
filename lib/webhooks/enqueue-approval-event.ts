import 'server-only';
import { randomUUID } from 'node:crypto';
import { getConfig } from '@/lib/config';
import type { Db } from '@/lib/db/engine';
import {
  type ApprovalEvent,
  type ApprovalEventBody,
  approvalEventSchema,
  approvalUrl,
} from './approval-event';
import { insertWebhookDelivery } from './webhook-deliveries';
import { wakeWebhookDeliveries } from './webhook-delivery-loop';

/** Options of {@link enqueueApprovalEvent}, for tests; the defaults come from the configuration. */
export type EnqueueApprovalEventOptions = {
  /** Whether events are queued. Default: `TOOLGATE_APPROVAL_WEBHOOK_URL` is set. */
  enabled?: boolean;
  /** The app's public URL for the event's `url`. Default `BETTER_AUTH_URL`, else `http://localhost:$PORT`. */
  baseUrl?: string;
  /** The clock, epoch ms. Default `Date.now`. */
  now?: () => number;
};

/**
 * Queues an approval webhook event: one `webhook_delivery` row, which the delivery loop
 * of this or any instance sends (signed, retried). Resolves once the row is written —
 * never waiting for the receiver — and never rejects: an event that cannot be queued is
 * logged, and the approval goes on as if no webhook were configured. Does nothing while
 * `TOOLGATE_APPROVAL_WEBHOOK_URL` is unset. Given a transaction, the row commits with it;
 * inside a transaction, never await it with the outer database (SQLite's one connection
 * would wait for itself): pass the transaction, or do not await (`void enqueue…`).
 */
export async function enqueueApprovalEvent(
  db: Db,
  event: ApprovalEvent,
  { enabled, baseUrl, now = Date.now }: EnqueueApprovalEventOptions = {},
): Promise<void> {
  try {
    const config = getConfig();
    if (!(enabled ?? config.TOOLGATE_APPROVAL_WEBHOOK_URL !== undefined)) return;
    const parsed = approvalEventSchema.safeParse(event);
    if (!parsed.success) {
      console.error(
        `[toolgate] webhook: not queued, the ${String(event?.type)} event of approval ${String(event?.approvalId)} is malformed:`,
        parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
      );
      return;
    }
    const { type, approvalId, tool, summary, roles, requester, expiresAt, status, url } = parsed.data;
    const id = randomUUID();
    const queuedAt = now();
    const base = baseUrl ?? config.BETTER_AUTH_URL ?? `http://localhost:${process.env.PORT || 3000}`;
    const body: ApprovalEventBody = {
      id,
      type,
      timestamp: new Date(queuedAt).toISOString(),
      approvalId,
      tool,
      summary,
      roles,
      requester: { name: requester.name },
      expiresAt,
      ...(status !== undefined && { status }),
      url: url ?? approvalUrl(base, approvalId),
    };
    await insertWebhookDelivery(db, {
      id,
      eventType: type,
      approvalId,
      body: JSON.stringify(body),
      now: queuedAt,
    });
    wakeWebhookDeliveries();
  } catch (error) {
    console.error(
      `[toolgate] webhook: could not queue the ${String(event?.type)} event of approval ${String(event?.approvalId)}:`,
      error,
    );
  }
}
