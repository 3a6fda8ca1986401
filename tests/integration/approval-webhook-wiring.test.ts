import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { POST as approve } from '@/app/api/chat/approve/route';
import { POST as chat } from '@/app/api/chat/route';
import { getDb } from '@/lib/db';
import { createWebhookDeliveryLoop, type WebhookDeliveryLoop } from '@/lib/webhooks/webhook-delivery-loop';
import { signUpWithRole, writePolicyFile } from '../support/approval-policy';
import {
  ChatStreamReader,
  defaultTestCookie,
  jsonRequest,
  setDefaultTestCookie,
  userMessage,
} from '../support/chat-client';
import { configureServerOn } from '../support/server-env';
import { databaseEngines } from '../support/test-database';
import { WebhookReceiver } from '../support/webhook-receiver';

const secret = 'wiring-webhook-test-secret-0123456789';

/** Asks for a call and reads to its card: a role step parks the turn, a requester step keeps it open until decided. */
async function ask(chatId: string, text: string) {
  const response = await chat(
    jsonRequest('/api/chat', { id: chatId, message: userMessage(text) }, { cookie: defaultTestCookie() }),
  );
  expect(response.status).toBe(200);
  const reader = new ChatStreamReader(response);
  const request = await reader.until('tool-approval-request');
  return { approvalId: request.approvalId as string, reader };
}

describe.each(databaseEngines)('the approval webhook, from the approval life cycle, on %s', (engine) => {
  const receiver = new WebhookReceiver(() => 200);
  let loop: WebhookDeliveryLoop | undefined;
  const bodies = () => receiver.received.map((webhook) => JSON.parse(webhook.body));

  beforeEach(async () => {
    receiver.received.length = 0;
    await receiver.start();
    await configureServerOn(engine, {
      TOOLGATE_POLICY: writePolicyFile(),
      TOOLGATE_PARK_AFTER_MS: '50',
      TOOLGATE_APPROVAL_WEBHOOK_URL: receiver.url,
      TOOLGATE_WEBHOOK_SECRET: secret,
    });
    loop = createWebhookDeliveryLoop({ db: getDb, url: receiver.url, secret, intervalMs: 50 });
    // Only a signed-in, verified user may ask a supervisor: the requester of these tests is one.
    setDefaultTestCookie((await signUpWithRole(`hook-req-${engine}@example.com`)).cookie);
  });

  afterEach(async () => {
    await loop?.stop();
    await receiver.stop();
  });

  it('sends approval.requested when a call needs a supervisor, and approval.settled with the decision', async () => {
    const { approvalId } = await ask('chat-hook', 'create a ticket: small refund');
    await expect
      .poll(() => bodies().map((body) => body.type), { timeout: 20_000 })
      .toEqual(['approval.requested']);
    expect(bodies()[0]).toMatchObject({
      approvalId,
      tool: 'createTicket',
      roles: ['supervisor'],
      summary: expect.stringContaining('small refund'),
      url: expect.stringMatching(new RegExp(`/approvals/${approvalId}$`)),
    });
    const supervisor = await signUpWithRole(`hook-sup-${engine}@example.com`, 'supervisor');
    const decided = await approve(
      jsonRequest('/api/chat/approve', { approvalId, approved: true }, { cookie: supervisor.cookie }),
    );
    expect(await decided.json()).toEqual({ status: 'approved' });
    await expect
      .poll(() => bodies().map((body) => body.type), { timeout: 20_000 })
      .toEqual(['approval.requested', 'approval.settled']);
    expect(bodies()[1]).toMatchObject({ approvalId, status: 'approved', roles: ['supervisor'] });
  });

  it('sends approval.settled with status expired when nobody decides in time', async () => {
    const { approvalId } = await ask('chat-late', 'create a ticket: hurry');
    await expect
      .poll(() => bodies().map((body) => [body.type, body.status]), { timeout: 20_000 })
      .toEqual([
        ['approval.requested', undefined],
        ['approval.settled', 'expired'],
      ]);
    expect(bodies()[1]).toMatchObject({ approvalId });
  });

  it('sends nothing for a call only its requester decides', async () => {
    const { approvalId, reader } = await ask('chat-plain', 'create a ticket: printer on fire');
    const decided = await approve(
      jsonRequest('/api/chat/approve', { approvalId, approved: false }, { cookie: defaultTestCookie() }),
    );
    expect(await decided.json()).toEqual({ status: 'denied' });
    await reader.rest();
    // A call with a role step, asked afterwards, arrives alone: nothing came before it.
    const { approvalId: later } = await ask('chat-after', 'create a ticket: small refund');
    await expect.poll(() => bodies().map((body) => body.approvalId), { timeout: 20_000 }).toEqual([later]);
  });
});
