import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/engine';
import { migrations } from '@/lib/db/migrations';
import { openDatabase } from '@/lib/db/open-database';
import { enqueueApprovalEvent, listWebhookDeliveries } from '@/lib/webhooks';
import type { ApprovalEvent } from '@/lib/webhooks/approval-event';
import { claimDueWebhookDeliveries } from '@/lib/webhooks/webhook-deliveries';
import { createWebhookDeliveryLoop, type WebhookDeliveryLoop } from '@/lib/webhooks/webhook-delivery-loop';
import { databaseEngines, openTestDatabase } from '../support/test-database';
import { type WebhookAnswer, WebhookReceiver } from '../support/webhook-receiver';

const secret = 'test-webhook-secret-0123456789abcdef';

const event = (approvalId: string, type: ApprovalEvent['type'] = 'approval.requested'): ApprovalEvent => ({
  type,
  approvalId,
  tool: 'issueRefund',
  summary: 'Refund 600.00 EUR on order A1001',
  roles: ['supervisor'],
  requester: { name: 'Ada' },
  expiresAt: Date.UTC(2030, 0, 1, 12),
  ...(type === 'approval.settled' && { status: 'approved' }),
});

/** What a receiver does (README): HMAC-SHA256 of the raw body with the secret, compared in constant time. */
function signatureVerifies(body: string, header: string | string[] | undefined): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
  const given = Buffer.from(String(header));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Polls `read` until `done` holds of its value; throws after `timeoutMs` with the last value. */
async function until<VALUE>(read: () => Promise<VALUE>, done: (value: VALUE) => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value)) {
    if (Date.now() > deadline) throw new Error(`not so within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
    value = await read();
  }
  return value;
}

const quietLogger = () => {
  const lines: string[] = [];
  const keep = (...parts: unknown[]) => void lines.push(parts.map(String).join(' '));
  return { lines, logger: { info: keep, warn: keep, error: keep } };
};

describe.each(databaseEngines)('approval webhook deliveries on %s', (engine) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setUp(answer: (earlier: number) => WebhookAnswer) {
    const receiver = await new WebhookReceiver((_webhook, earlier) => answer(earlier)).start();
    const database = await openTestDatabase(engine);
    cleanups.push(
      () => database.close(),
      () => receiver.stop(),
    );
    const loops: WebhookDeliveryLoop[] = [];
    const log = quietLogger();
    const startLoop = (db: Db, options: { timeoutMs?: number } = {}) => {
      const loop = createWebhookDeliveryLoop({
        db: async () => db,
        url: receiver.url,
        secret,
        intervalMs: 25,
        retryDelayMs: () => 50,
        logger: log.logger,
        ...options,
      });
      loops.push(loop);
      return loop;
    };
    // Loops stop before the database closes (cleanups run in reverse).
    cleanups.push(async () => {
      await Promise.all(loops.map((loop) => loop.stop()));
    });
    const rows = () => listWebhookDeliveries(database.db);
    return { receiver, db: database.db, target: database.target, startLoop, rows, log };
  }

  const enqueue = (db: Db, approvalId: string, type?: ApprovalEvent['type']) =>
    enqueueApprovalEvent(db, event(approvalId, type), {
      enabled: true,
      baseUrl: 'https://chat.example.com/',
    });

  it('delivers on the third try when the receiver fails twice, every try signed with the secret', async () => {
    const { receiver, db, startLoop, rows } = await setUp((earlier) => (earlier < 2 ? 503 : 200));
    startLoop(db);
    await enqueue(db, 'ap-1');
    const [row] = await until(rows, ([first]) => first?.status === 'delivered');
    expect(row).toMatchObject({ attempts: 3, lastStatus: 200, lastError: null, approvalId: 'ap-1' });
    const tries = receiver.forEvent(row.id);
    expect(tries).toHaveLength(3);
    for (const [index, received] of tries.entries()) {
      expect(received.body).toBe(tries[0].body);
      expect(signatureVerifies(received.body, received.headers['x-toolgate-signature'])).toBe(true);
      expect(received.headers).toMatchObject({
        'content-type': 'application/json',
        'x-toolgate-event': 'approval.requested',
        'x-toolgate-event-id': row.id,
        'x-toolgate-attempt': String(index + 1),
      });
    }
    const body = JSON.parse(tries[0].body);
    expect(body).toEqual({
      id: row.id,
      type: 'approval.requested',
      timestamp: expect.any(String),
      approvalId: 'ap-1',
      tool: 'issueRefund',
      summary: 'Refund 600.00 EUR on order A1001',
      roles: ['supervisor'],
      requester: { name: 'Ada' },
      expiresAt: '2030-01-01T12:00:00.000Z',
      url: 'https://chat.example.com/approvals/ap-1',
    });
    expect(tries[0].headers['x-toolgate-timestamp']).toBe(
      String(Math.floor(Date.parse(body.timestamp) / 1000)),
    );
    // A wrong secret does not verify.
    expect(signatureVerifies(`${tries[0].body} `, tries[0].headers['x-toolgate-signature'])).toBe(false);
  });

  it('returns at once while the receiver never answers, and marks the event failed after five tries', async () => {
    const { receiver, db, startLoop, rows, log } = await setUp(() => 'never');
    const timeoutMs = 1_500;
    startLoop(db, { timeoutMs });
    const startedAt = Date.now();
    await enqueue(db, 'ap-2', 'approval.settled');
    // The row is written and the caller goes on while the first try still waits for an answer.
    expect(Date.now() - startedAt).toBeLessThan(timeoutMs);
    const [queued] = await rows();
    expect(queued).toMatchObject({ status: 'pending', approvalId: 'ap-2', eventType: 'approval.settled' });
    const [row] = await until(rows, ([first]) => first?.status === 'failed', 60_000);
    expect(row).toMatchObject({
      attempts: 5,
      lastStatus: null,
      lastError: `no answer within ${timeoutMs} ms`,
    });
    expect(receiver.forEvent(row.id)).toHaveLength(5);
    expect(log.lines.some((line) => line.includes('gave up') && line.includes(row.id))).toBe(true);
  }, 90_000);

  it('follows no redirect and reads no more than a little of a failing answer', async () => {
    const huge = `${'x'.repeat(200)} ${'y'.repeat(2_000_000)}`;
    const { receiver, db, startLoop, rows } = await setUp((earlier) =>
      earlier < 4 ? 307 : { status: 500, body: huge },
    );
    startLoop(db);
    await enqueue(db, 'ap-redirect');
    const [row] = await until(rows, ([first]) => first?.status === 'failed');
    // Five tries, each one request: the 307s pointed back at the receiver and were not followed.
    expect(receiver.forEvent(row.id)).toHaveLength(5);
    expect(row.attempts).toBe(5);
    expect(row.lastStatus).toBe(500);
    expect(row.lastError?.startsWith(`HTTP 500: ${'x'.repeat(200)} y`)).toBe(true);
    expect(row.lastError?.length).toBeLessThan(600);
  });

  it('sends each try once when two loops share the database', async () => {
    // Every event fails its first try and is delivered on its second.
    const { receiver, db, target, startLoop, rows } = await setUp((earlier) => (earlier === 0 ? 500 : 204));
    const second = await openDatabase({ url: target.url, path: target.path });
    cleanups.push(() => second.destroy());
    startLoop(db);
    startLoop(second);
    const ids = Array.from({ length: 12 }, (_, index) => `ap-two-${index}`);
    await Promise.all(ids.map((id, index) => enqueue(index % 2 === 0 ? db : second, id)));
    const delivered = await until(
      rows,
      (list) => list.length === ids.length && list.every((row) => row.status === 'delivered'),
    );
    for (const row of delivered) {
      expect(row.attempts).toBe(2);
      expect(receiver.forEvent(row.id).map((webhook) => webhook.headers['x-toolgate-attempt'])).toEqual([
        '1',
        '2',
      ]);
    }
    expect(receiver.received).toHaveLength(ids.length * 2);
  });

  it('goes on after a restart mid-retry, counting the tries already made', async () => {
    let receiverUp = false;
    const { receiver, db, target, startLoop, rows } = await setUp(() => (receiverUp ? 200 : 502));
    const first = startLoop(db);
    await enqueue(db, 'ap-3');
    await until(rows, ([row]) => row?.attempts === 1 && row.status === 'pending' && row.lastStatus === 502);
    await first.stop();
    // A new process: its own connection and loop, the receiver back up.
    receiverUp = true;
    const restarted = await openDatabase({ url: target.url, path: target.path });
    cleanups.push(() => restarted.destroy());
    startLoop(restarted);
    const [row] = await until(rows, ([only]) => only?.status === 'delivered');
    expect(row.attempts).toBe(2);
    expect(receiver.forEvent(row.id)).toHaveLength(2);
  });

  it('makes a try again once the lease of a loop that died mid-try runs out', async () => {
    const { receiver, db, startLoop, rows } = await setUp(() => 200);
    await enqueue(db, 'ap-lost');
    // A loop claims the first try (with a short lease) and its process dies before it sends.
    const [claimed] = await claimDueWebhookDeliveries(db, { now: Date.now(), limit: 10, leaseMs: 300 });
    expect(claimed.attempts).toBe(1);
    startLoop(db);
    const [row] = await until(rows, ([only]) => only?.status === 'delivered');
    expect(row.attempts).toBe(2);
    expect(receiver.forEvent(row.id).map((webhook) => webhook.headers['x-toolgate-attempt'])).toEqual(['2']);
  });

  it('keeps its table when its migration runs again', async () => {
    const { db, rows } = await setUp(() => 200);
    await enqueue(db, 'ap-kept');
    const step = migrations.find((migration) => migration.name === 'webhook deliveries');
    await step?.up(db, engine);
    expect((await rows()).map((row) => row.approvalId)).toEqual(['ap-kept']);
  });

  it('queues nothing while no webhook URL is set, and never throws into the caller', async () => {
    const { db, rows } = await setUp(() => 200);
    await enqueueApprovalEvent(db, event('ap-off'), { enabled: false });
    expect(await rows()).toEqual([]);
    // A malformed event and a database that is gone are logged, not thrown.
    const errors: unknown[][] = [];
    const original = console.error;
    console.error = (...parts: unknown[]) => void errors.push(parts);
    try {
      await expect(
        enqueueApprovalEvent(db, { ...event('ap-bad'), expiresAt: 'not a time' }, { enabled: true }),
      ).resolves.toBeUndefined();
      const gone = await openTestDatabase(engine);
      await gone.close();
      await expect(
        enqueueApprovalEvent(gone.db, event('ap-gone'), { enabled: true }),
      ).resolves.toBeUndefined();
    } finally {
      console.error = original;
    }
    expect(await rows()).toEqual([]);
    expect(errors.map((parts) => String(parts[0])).join('\n')).toMatch(/ap-bad[\s\S]*ap-gone/);
  });
});
