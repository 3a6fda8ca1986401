import { afterAll, afterEach, beforeAll } from 'vitest';
import { getConfig } from '@/lib/config';
import { getDb } from '@/lib/db';
import { createMailSender } from '@/lib/webhooks/start-mail-deliveries';
import { createWebhookDeliveryLoop, type WebhookDeliveryLoop } from '@/lib/webhooks/webhook-delivery-loop';
import { mailHeader, type SmtpCapture, startSmtpCapture } from './smtp-capture';
import { WebhookReceiver } from './webhook-receiver';

/**
 * Where a test server's approval mail and webhooks go, for one describe block: an SMTP
 * capture and a webhook receiver (answering 200) for the whole block, and delivery loops
 * that each test starts after `configureServerOn` (the mail loop reads its configuration)
 * and that stop after the test. Call it in the describe block's body.
 */
export function useApprovalDeliveries({ secret = 'approval-deliveries-webhook-secret-0123456789' } = {}) {
  let smtp: SmtpCapture | undefined;
  const receiver = new WebhookReceiver(() => 200);
  const loops: WebhookDeliveryLoop[] = [];

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    await receiver.start();
  });
  afterAll(async () => {
    await smtp?.stop();
    await receiver.stop();
  });
  afterEach(async () => {
    await Promise.all(loops.splice(0).map((loop) => loop.stop()));
  });

  const capture = () => {
    if (smtp === undefined) throw new Error('the SMTP capture starts in beforeAll');
    return smtp;
  };

  return {
    /** The mail the server sent. */
    get smtp(): SmtpCapture {
      return capture();
    },
    receiver,
    /** The approval mails about `approvalId` (not sign-up mail), as sorted `recipients event` lines. */
    mailEventsOf: (approvalId: string): string[] =>
      capture()
        .mails.filter((mail) => mailHeader(mail, 'X-Toolgate-Approval') === approvalId)
        .map((mail) => `${mail.to.join(',')} ${mailHeader(mail, 'X-Toolgate-Event')}`)
        .sort(),
    /** The server environment that mails approvers through the capture. */
    mailEnvironment: () => ({ SMTP_URL: capture().url }),
    /** The server environment that sends approval webhooks to the receiver. */
    webhookEnvironment: () => ({
      TOOLGATE_APPROVAL_WEBHOOK_URL: receiver.url,
      TOOLGATE_WEBHOOK_SECRET: secret,
    }),
    /** Starts `count` mail loops on the database, as that many instances would run them. */
    startMailLoops(count = 1): void {
      for (let index = 0; index < count; index++)
        loops.push(
          createWebhookDeliveryLoop({
            db: getDb,
            channel: 'mail',
            send: createMailSender(getConfig()),
            intervalMs: 50,
          }),
        );
    },
    /** Starts the webhook loop that posts to the receiver. */
    startWebhookLoop(): void {
      loops.push(createWebhookDeliveryLoop({ db: getDb, url: receiver.url, secret, intervalMs: 50 }));
    },
  };
}
