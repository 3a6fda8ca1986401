import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as approve } from '@/app/api/chat/approve/route';
import { POST as chat } from '@/app/api/chat/route';
import { getDb } from '@/lib/db';
import { renderMetrics } from '@/lib/telemetry/metrics';
import { pruneWebhookDeliveries } from '@/lib/webhooks/webhook-deliveries';
import { createWebhookDeliveryLoop } from '@/lib/webhooks/webhook-delivery-loop';
import { signUpWithRole, writePolicyFile } from '../support/approval-policy';
import { ChatStreamReader, userMessage } from '../support/chat-client';
import { configureServerOn, signUpUser } from '../support/server-env';
import { WebhookReceiver } from '../support/webhook-receiver';

const secret = 'webhook-budget-test-secret-0123456789';
/** Every ticket waits for a supervisor: each request and each denial is a webhook event. */
const policy = { roles: {}, rules: [{ tool: 'createTicket', approvers: [{ role: 'supervisor' }] }] };

/** A request from `address` (as the server stamps it) for `cookie`'s session. */
function from(address: string, cookie: string, path: string, body: unknown): NextRequest {
  return new NextRequest(new URL(path, 'http://localhost'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, 'x-toolgate-client-address': address },
    body: JSON.stringify(body),
  });
}

/** Asks for a ticket a supervisor must allow, then denies it as its requester: two events at most. */
async function askAndDeny(address: string, cookie: string, chatId: string): Promise<string> {
  const response = await chat(
    from(address, cookie, '/api/chat', { id: chatId, message: userMessage('create a ticket: spam') }),
  );
  expect(response.status).toBe(200);
  const reader = new ChatStreamReader(response);
  const { approvalId } = (await reader.until('tool-approval-request')) as { approvalId: string };
  await reader.rest();
  const denied = await approve(from(address, cookie, '/api/chat/approve', { approvalId, approved: false }));
  expect(await denied.json()).toMatchObject({ status: 'denied' });
  return approvalId;
}

async function queuedFor(approvalIds: readonly string[]): Promise<number> {
  if (approvalIds.length === 0) return 0;
  const db = await getDb();
  const rows = await db
    .selectFrom('webhook_delivery')
    .select('id')
    .where('approval_id', 'in', approvalIds)
    .execute();
  return rows.length;
}

describe('the approval webhook under a flood of requests', () => {
  const receiver = new WebhookReceiver(() => 200);

  beforeAll(async () => {
    await receiver.start();
    await configureServerOn('sqlite', {
      TOOLGATE_POLICY: writePolicyFile(policy),
      TOOLGATE_PARK_AFTER_MS: '50',
      TOOLGATE_APPROVAL_WEBHOOK_URL: receiver.url,
      TOOLGATE_WEBHOOK_SECRET: secret,
      TOOLGATE_USER_TURN_RATE_LIMIT: 'off',
      TOOLGATE_WEBHOOK_USER_LIMIT: '4/10m',
      TOOLGATE_WEBHOOK_ADDRESS_LIMIT: '6/10m',
    });
    // A supervisor exists: a step nobody can fill is refused at once, with no card and no event.
    await signUpWithRole('budget-supervisor@example.com', 'supervisor');
  });

  afterAll(async () => {
    await receiver.stop();
  });

  it('queues at most a user’s budget of events, counts what it drops, and another user’s events still go out', async () => {
    // Only a verified account may ask a supervisor (a guest is refused without a card or event).
    const flooder = await signUpUser('flooder@example.com');
    const flooded: string[] = [];
    for (let index = 0; index < 12; index += 1)
      flooded.push(await askAndDeny('198.51.100.1', flooder, `flood-${index}`));
    // Four requests and their four settlements; nothing of the eight past the budget.
    await expect.poll(() => queuedFor(flooded)).toBe(8);
    expect(await queuedFor(flooded.slice(4))).toBe(0);
    expect(renderMetrics({ approvalsPending: 0 })).toMatch(
      /toolgate_webhook_events_dropped_total\{budget="user"\} 8/,
    );

    const bystander = await signUpUser('bystander@example.com');
    const theirs = await askAndDeny('198.51.100.2', bystander, 'bystander');
    await expect.poll(() => queuedFor([theirs])).toBe(2);
    // And they reach the receiver.
    const loop = createWebhookDeliveryLoop({ db: getDb, url: receiver.url, secret, intervalMs: 50 });
    const delivered = () =>
      receiver.received
        .map((webhook) => JSON.parse(webhook.body) as { approvalId: string; type: string })
        .filter((body) => body.approvalId === theirs)
        .map((body) => body.type)
        .sort();
    await expect.poll(delivered, { timeout: 20_000 }).toEqual(['approval.requested', 'approval.settled']);
    await loop.stop();
  });

  it('caps one client address across many accounts', async () => {
    const sessions = [
      await signUpUser('one@example.com'),
      await signUpUser('two@example.com'),
      await signUpUser('three@example.com'),
    ];
    const asked: string[] = [];
    for (const cookie of sessions) {
      for (let index = 0; index < 3; index += 1)
        asked.push(await askAndDeny('203.0.113.9', cookie, `many-${asked.length}`));
    }
    // Six requests from the address are announced (with their settlements), no more.
    await expect.poll(() => queuedFor(asked)).toBe(12);
    const other = await askAndDeny('203.0.113.10', await signUpUser('elsewhere@example.com'), 'elsewhere');
    await expect.poll(() => queuedFor([other])).toBe(2);
  });

  it('prunes delivered deliveries past the retention and keeps pending ones', async () => {
    const loop = createWebhookDeliveryLoop({
      db: getDb,
      url: receiver.url,
      secret,
      intervalMs: 50,
      retentionMs: 60_000,
    });
    const db = await getDb();
    await expect
      .poll(
        async () =>
          (await db.selectFrom('webhook_delivery').select('id').where('status', '=', 'pending').execute())
            .length,
        { timeout: 20_000 },
      )
      .toBe(0);
    await loop.stop();
    const total = (await db.selectFrom('webhook_delivery').select('id').execute()).length;
    expect(total).toBeGreaterThan(0);
    await db
      .updateTable('webhook_delivery')
      .set({ status: 'pending' })
      .where('event_type', '=', 'approval.settled')
      .execute();
    // An hour from now, every delivered row is past a one-minute retention.
    const later = createWebhookDeliveryLoop({
      db: getDb,
      url: 'http://127.0.0.1:9/never',
      secret,
      intervalMs: 60_000,
      retentionMs: 60_000,
      now: () => Date.now() + 3_600_000,
    });
    await expect
      .poll(async () =>
        (await db.selectFrom('webhook_delivery').select('event_type').execute()).map((row) => row.event_type),
      )
      .not.toContain('approval.requested');
    await later.stop();
    const left = await db.selectFrom('webhook_delivery').select('event_type').execute();
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((row) => row.event_type === 'approval.settled')).toBe(true);
    expect(await pruneWebhookDeliveries(db, { before: Date.now() + 3_600_000, limit: 10 })).toBe(0);
  });
});
