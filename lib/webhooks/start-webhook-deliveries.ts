import 'server-only';
import type { AppConfig } from '@/lib/config';
import { getDb } from '@/lib/db/get-db';
import { createWebhookDeliveryLoop, type WebhookDeliveryLoop } from './webhook-delivery-loop';

const globalForDeliveries = globalThis as typeof globalThis & {
  __toolgateWebhookDeliveries?: WebhookDeliveryLoop;
};

/**
 * Starts this process's approval webhook delivery loop (once; the server's start-up hook
 * calls it) when `TOOLGATE_APPROVAL_WEBHOOK_URL` is set. Rows left pending by an earlier
 * run, or by another instance that went away mid-try, are sent from here too.
 */
export function startWebhookDeliveries(config: AppConfig): void {
  const url = config.TOOLGATE_APPROVAL_WEBHOOK_URL;
  const secret = config.TOOLGATE_WEBHOOK_SECRET;
  if (url === undefined || secret === undefined || globalForDeliveries.__toolgateWebhookDeliveries) return;
  globalForDeliveries.__toolgateWebhookDeliveries = createWebhookDeliveryLoop({
    db: getDb,
    url,
    secret,
    retentionMs: config.TOOLGATE_WEBHOOK_RETENTION_MS,
  });
}
