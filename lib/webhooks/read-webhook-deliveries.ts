import 'server-only';
import { getConfig } from '@/lib/config';
import { getDb } from '@/lib/db/get-db';
import { listWebhookDeliveries, type WebhookDeliveryStatus } from './webhook-deliveries';

/** One delivery as admins see it: the row without its raw body, and the event it carries. */
export type WebhookDeliveryView = {
  id: string;
  type: string;
  approvalId: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  /** When the next try is due (ISO 8601); null once delivered or failed. */
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
  event: unknown;
};

/** The admin view of the approval webhook: whether it is on, where it posts (origin only), the latest deliveries. */
export type WebhookDeliveriesView = {
  configured: boolean;
  /** The receiver's origin; its path and query may hold a token, so they are not shown. */
  receiver: string | null;
  deliveries: WebhookDeliveryView[];
};

/** Reads the latest deliveries, newest first (`limit`, optionally one `status`). */
export async function readWebhookDeliveries({
  limit = 100,
  status,
}: {
  limit?: number;
  status?: WebhookDeliveryStatus;
} = {}): Promise<WebhookDeliveriesView> {
  const url = getConfig().TOOLGATE_APPROVAL_WEBHOOK_URL;
  const rows = await listWebhookDeliveries(await getDb(), { limit, status });
  return {
    configured: url !== undefined,
    receiver: url === undefined ? null : new URL(url).origin,
    deliveries: rows.map((row) => ({
      id: row.id,
      type: row.eventType,
      approvalId: row.approvalId,
      status: row.status,
      attempts: row.attempts,
      lastStatus: row.lastStatus,
      lastError: row.lastError,
      nextAttemptAt: row.status === 'pending' ? new Date(row.nextAttemptAt).toISOString() : null,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      event: parseBody(row.body),
    })),
  };
}

function parseBody(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
}
