import 'server-only';
import nodemailer from 'nodemailer';
import type { AppConfig } from '@/lib/config';
import { getDb } from '@/lib/db/get-db';
import type { WebhookDelivery } from './webhook-deliveries';
import {
  createWebhookDeliveryLoop,
  type DeliveryAnswer,
  type WebhookDeliveryLoop,
} from './webhook-delivery-loop';

const globalForMail = globalThis as typeof globalThis & {
  __toolgateMailDeliveries?: WebhookDeliveryLoop;
};

/**
 * Starts this process's approver mail loop (once; the server's start-up hook calls it) when
 * `SMTP_URL` is set: the webhook's delivery loop over the outbox's `mail` rows, so mail is
 * claimed, leased, retried and pruned exactly as webhook events are.
 */
export function startMailDeliveries(config: AppConfig): WebhookDeliveryLoop | undefined {
  if (config.SMTP_URL === undefined) return undefined;
  globalForMail.__toolgateMailDeliveries ??= createWebhookDeliveryLoop({
    db: getDb,
    channel: 'mail',
    send: createMailSender(config),
    retentionMs: config.TOOLGATE_WEBHOOK_RETENTION_MS,
  });
  return globalForMail.__toolgateMailDeliveries;
}

/** One try of a mail row: its stored `{ to, subject, text }` sent over `SMTP_URL` from `SMTP_FROM`. */
export function createMailSender(
  config: Pick<AppConfig, 'SMTP_URL' | 'SMTP_FROM'>,
): (delivery: WebhookDelivery) => Promise<DeliveryAnswer> {
  const transport = nodemailer.createTransport(config.SMTP_URL);
  return async (delivery) => {
    try {
      const { to, subject, text } = JSON.parse(delivery.body) as {
        to: string;
        subject: string;
        text: string;
      };
      await transport.sendMail({
        from: config.SMTP_FROM,
        to,
        subject,
        text,
        // For mail filters: which approval, and which mail of it (the row's event type).
        headers: { 'X-Toolgate-Approval': delivery.approvalId, 'X-Toolgate-Event': delivery.eventType },
      });
      return { delivered: true };
    } catch (error) {
      return { delivered: false, error: error instanceof Error ? error.message : String(error) };
    }
  };
}
