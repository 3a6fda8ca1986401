import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as readApproval } from '@/app/api/approvals/[approvalId]/route';
import { GET as listDecided } from '@/app/api/approvals/decided/route';
import { GET as listApprovals } from '@/app/api/approvals/route';
import { POST as approve } from '@/app/api/chat/approve/route';
import { POST as chat } from '@/app/api/chat/route';
import { getDb } from '@/lib/db';
import { createWebhookDeliveryLoop, type WebhookDeliveryLoop } from '@/lib/webhooks/webhook-delivery-loop';
import { signUpWithRole, writePolicyFile } from '../support/approval-policy';
import { ChatStreamReader, getRequest, jsonRequest, userMessage } from '../support/chat-client';
import { configureServerOn } from '../support/server-env';
import { WebhookReceiver } from '../support/webhook-receiver';

const secret = 'approver-text-webhook-secret-0123456789';
/** Every createTicket call waits for a supervisor. */
const policy = { roles: {}, rules: [{ tool: 'createTicket', approvers: [{ role: 'supervisor' }] }] };

type Listed = {
  approvalId: string;
  summary?: Record<string, string>;
  requester: { name: string };
  chatExcerpt?: string;
  steps: { decidedBy?: { name: string } }[];
};

/** Whether a text holds a bidirectional override, a zero-width space or a tag character. */
const hidden = /[\u202e\u200b\u{e0041}]/u;

describe('what a requester writes, as an approver reads it', () => {
  const receiver = new WebhookReceiver(() => 200);
  let loop: WebhookDeliveryLoop | undefined;

  beforeAll(async () => {
    await receiver.start();
    await configureServerOn('sqlite', {
      TOOLGATE_POLICY: writePolicyFile(policy),
      TOOLGATE_PARK_AFTER_MS: '50',
      TOOLGATE_APPROVAL_WEBHOOK_URL: receiver.url,
      TOOLGATE_WEBHOOK_SECRET: secret,
    });
    loop = createWebhookDeliveryLoop({ db: getDb, url: receiver.url, secret, intervalMs: 50 });
  });

  afterAll(async () => {
    await loop?.stop();
    await receiver.stop();
  });

  it('shows hidden characters as code points in the name, the excerpt, the summary, the lists and the webhook', async () => {
    const requester = await signUpWithRole('mallory@example.com');
    const supervisor = await signUpWithRole('boss@example.com', 'supervisor');
    const db = await getDb();
    await db.updateTable('user').set({ name: 'Mal\u202Eyrol' }).where('id', '=', requester.id).execute();

    const text = 'create a ticket: refund\u200B 1\u{E0041}';
    const response = await chat(
      jsonRequest(
        '/api/chat',
        { id: 'chat-hidden', message: userMessage(text) },
        { cookie: requester.cookie },
      ),
    );
    const reader = new ChatStreamReader(response);
    const { approvalId } = (await reader.until('tool-approval-request')) as { approvalId: string };
    await reader.rest();

    const view = (await (
      await readApproval(getRequest(`/api/approvals/${approvalId}`, { cookie: supervisor.cookie }), {
        params: Promise.resolve({ approvalId }),
      })
    ).json()) as Listed;
    expect(view.requester.name).toBe('Mal⟨U+202E⟩yrol');
    expect(view.summary?.en).toContain('refund⟨U+200B⟩ 1⟨U+E0041⟩');

    const inbox = (await (
      await listApprovals(getRequest('/api/approvals', { cookie: supervisor.cookie }))
    ).json()) as { approvals: Listed[] };
    expect(inbox.approvals[0]?.chatExcerpt).toBe('create a ticket: refund⟨U+200B⟩ 1⟨U+E0041⟩');
    expect(JSON.stringify(inbox.approvals[0]?.summary)).not.toMatch(hidden);
    expect(inbox.approvals[0]?.requester.name).toBe('Mal⟨U+202E⟩yrol');

    await approve(
      jsonRequest('/api/chat/approve', { approvalId, approved: false }, { cookie: supervisor.cookie }),
    );
    const decided = (await (
      await listDecided(getRequest('/api/approvals/decided', { cookie: supervisor.cookie }))
    ).json()) as { approvals: Listed[] };
    expect(decided.approvals[0]?.chatExcerpt).toBe('create a ticket: refund⟨U+200B⟩ 1⟨U+E0041⟩');
    expect(decided.approvals[0]?.requester.name).toBe('Mal⟨U+202E⟩yrol');

    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(2);
    for (const webhook of receiver.received) {
      const body = JSON.parse(webhook.body) as { summary: string; requester: { name: string } };
      expect(body.requester.name).toBe('Mal⟨U+202E⟩yrol');
      expect(body.summary).toContain('refund⟨U+200B⟩ 1⟨U+E0041⟩');
    }
  });

  it('escapes control characters in the name the webhook carries: no line break reaches the receiver', async () => {
    receiver.received.length = 0;
    const requester = await signUpWithRole('lines@example.com');
    await signUpWithRole('boss2@example.com', 'supervisor');
    const db = await getDb();
    const name = 'Lin\r\nSubject: urgent\tnow\u2028https://evil.example';
    await db.updateTable('user').set({ name }).where('id', '=', requester.id).execute();
    const response = await chat(
      jsonRequest(
        '/api/chat',
        { id: 'chat-lines', message: userMessage('create a ticket: printer jam') },
        { cookie: requester.cookie },
      ),
    );
    const reader = new ChatStreamReader(response);
    await reader.until('tool-approval-request');
    await reader.leave();

    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(1);
    const body = JSON.parse(receiver.received[0]?.body ?? '{}') as { requester: { name: string } };
    expect(body.requester.name).toBe(
      'Lin⟨U+000D⟩⟨U+000A⟩Subject: urgent⟨U+0009⟩now⟨U+2028⟩https://evil.example',
    );
    // Nor an escaped one in the raw body: `\n` would still read as a line break once parsed.
    expect(receiver.received[0]?.body).not.toMatch(/\\[nrt]|[\u2028\u2029]/);
  });
});
