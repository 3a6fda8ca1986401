import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GET as readApproval } from '@/app/api/approvals/[approvalId]/route';
import { POST as approve } from '@/app/api/chat/approve/route';
import { POST as chat } from '@/app/api/chat/route';
import { watchPendingDeadlines } from '@/lib/approvals/approval-deadlines';
import { getConfig } from '@/lib/config';
import { getDb } from '@/lib/db';
import { createMailSender } from '@/lib/webhooks/start-mail-deliveries';
import { createWebhookDeliveryLoop, type WebhookDeliveryLoop } from '@/lib/webhooks/webhook-delivery-loop';
import { signUpWithRole, testPolicy, writePolicyFile } from '../support/approval-policy';
import {
  ChatStreamReader,
  defaultTestCookie,
  getRequest,
  jsonRequest,
  setDefaultTestCookie,
  userMessage,
} from '../support/chat-client';
import { configureServerOn, retireDeadlineKeeper } from '../support/server-env';
import { mailHeader, type SmtpCapture, startSmtpCapture } from '../support/smtp-capture';
import { databaseEngines } from '../support/test-database';
import { WebhookReceiver } from '../support/webhook-receiver';

const secret = 'escalation-webhook-secret-0123456789';

/**
 * A supervisor step handed to a manager after 800 ms, then waiting 20 s again; "escalate me
 * later" after 3 s, long enough for a busy test machine to stop the keeper before it is due.
 */
const policy = {
  ...testPolicy,
  rules: [
    {
      tool: 'createTicket',
      when: { title: { eq: 'escalate me' } },
      approvers: [{ role: 'supervisor' }],
      timeoutMs: 20_000,
      escalate: { afterMs: 800, to: { role: 'manager' } },
    },
    {
      tool: 'createTicket',
      when: { title: { eq: 'escalate me later' } },
      approvers: [{ role: 'supervisor' }],
      timeoutMs: 20_000,
      escalate: { afterMs: 3000, to: { role: 'manager' } },
    },
    ...testPolicy.rules,
  ],
};

type View = {
  status: string;
  expiresAt: number;
  steps: { kind: string; role?: string; escalatedTo?: string }[];
};

async function ask(chatId: string, text: string) {
  const response = await chat(
    jsonRequest('/api/chat', { id: chatId, message: userMessage(text) }, { cookie: defaultTestCookie() }),
  );
  expect(response.status).toBe(200);
  const reader = new ChatStreamReader(response);
  const request = await reader.until('tool-approval-request');
  return { approvalId: request.approvalId as string, reader };
}

async function view(approvalId: string, cookie = defaultTestCookie()): Promise<View> {
  const response = await readApproval(getRequest(`/api/approvals/${approvalId}`, { cookie }), {
    params: Promise.resolve({ approvalId }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as View;
}

describe.each(databaseEngines)('escalation, on %s', (engine) => {
  let smtp: SmtpCapture;
  const receiver = new WebhookReceiver(() => 200);
  const loops: WebhookDeliveryLoop[] = [];

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    await receiver.start();
  });
  afterAll(async () => {
    await smtp.stop();
    await receiver.stop();
  });

  beforeEach(async () => {
    await configureServerOn(engine, {
      TOOLGATE_POLICY: writePolicyFile(policy),
      TOOLGATE_PARK_AFTER_MS: '50',
      SMTP_URL: smtp.url,
      TOOLGATE_APPROVAL_WEBHOOK_URL: receiver.url,
      TOOLGATE_WEBHOOK_SECRET: secret,
    });
    loops.push(
      createWebhookDeliveryLoop({ db: getDb, url: receiver.url, secret, intervalMs: 50 }),
      createWebhookDeliveryLoop({
        db: getDb,
        channel: 'mail',
        send: createMailSender(getConfig()),
        intervalMs: 50,
      }),
    );
    setDefaultTestCookie((await signUpWithRole(`esc-req-${engine}@example.com`)).cookie);
  });

  afterEach(async () => {
    await Promise.all(loops.splice(0).map((loop) => loop.stop()));
  });

  it('hands an open supervisor step to a manager once: the deadline restarts, the view, webhook, mail and audit say so', async () => {
    const supervisor = await signUpWithRole(`esc-sup-${engine}@example.com`, 'supervisor');
    const manager = await signUpWithRole(`esc-man-${engine}@example.com`, 'manager');
    const { approvalId } = await ask(`chat-esc-${engine}`, 'create a ticket: escalate me');
    const asked = await view(approvalId);
    expect(asked.steps).toEqual([{ kind: 'role', role: 'supervisor' }]);

    await expect
      .poll(async () => (await view(approvalId)).steps, { timeout: 20_000 })
      .toEqual([{ kind: 'role', role: 'manager', escalatedTo: 'manager' }]);
    expect((await view(approvalId)).expiresAt).toBeGreaterThan(asked.expiresAt + 500);

    // The supervisor may no longer decide; the manager may.
    const late = await approve(
      jsonRequest('/api/chat/approve', { approvalId, approved: true }, { cookie: supervisor.cookie }),
    );
    expect(late.status).toBe(404);
    await expect
      .poll(
        () =>
          smtp.mails
            .filter((mail) => mailHeader(mail, 'X-Toolgate-Approval') === approvalId)
            .map((mail) => `${mail.to[0]} ${mailHeader(mail, 'X-Toolgate-Event')}`)
            .sort(),
        { timeout: 20_000 },
      )
      .toEqual([
        `esc-man-${engine}@example.com approval.mail.escalated`,
        `esc-sup-${engine}@example.com approval.mail.requested`,
      ]);
    const decided = await approve(
      jsonRequest('/api/chat/approve', { approvalId, approved: true }, { cookie: manager.cookie }),
    );
    expect(await decided.json()).toEqual({ status: 'approved' });

    await expect
      .poll(
        () =>
          receiver.received
            .map((webhook) => JSON.parse(webhook.body))
            .filter((body) => body.approvalId === approvalId)
            .map((body) => body.type),
        { timeout: 20_000 },
      )
      .toEqual(['approval.requested', 'approval.escalated', 'approval.settled']);
    const audit = await (await getDb())
      .selectFrom('tool_audit')
      .select(['outcome', 'detail'])
      .where('chat_id', '=', `chat-esc-${engine}`)
      .where('outcome', '=', 'escalated')
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0].detail ?? '{}')).toMatchObject({ escalatedTo: 'manager' });
  });

  it('escalates after a restart: the keeper of a new process finds the due row', async () => {
    await signUpWithRole(`esc-man2-${engine}@example.com`, 'manager');
    const asked = Date.now();
    const { approvalId } = await ask(`chat-restart-${engine}`, 'create a ticket: escalate me later');
    // The card can reach the client before the request has told the keeper: wait until it has.
    const escalateAt = async () =>
      (
        await (
          await getDb()
        )
          .selectFrom('approvals')
          .select('escalate_at')
          .where('id', '=', approvalId)
          .executeTakeFirst()
      )?.escalate_at ?? null;
    await expect.poll(escalateAt).not.toBeNull();
    await retireDeadlineKeeper();
    // Past the escalation's moment: with no keeper, nothing has happened.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, asked + 3500 - Date.now())));
    expect((await view(approvalId)).steps).toEqual([{ kind: 'role', role: 'supervisor' }]);
    await watchPendingDeadlines();
    await expect
      .poll(async () => (await view(approvalId)).steps, { timeout: 20_000 })
      .toEqual([{ kind: 'role', role: 'manager', escalatedTo: 'manager' }]);
  });
});
