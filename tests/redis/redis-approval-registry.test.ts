import { createServer } from 'node:net';
import { type ApprovalRegistry, type ApprovalRequestEvent, StoreUnavailableError } from '@toolgate/engine';
import { createRedisApprovalRegistry, getRedisClient } from '@toolgate/engine/redis';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { RedisClient } from '../../packages/engine/src/stores/redis-client';
import { closeTestClient, connectTestClient, keysUnder, uniquePrefix } from './redis-test-client';

// Registry A holds the waiting calls; registry B is another instance (own connection) taking decisions.
let clients: RedisClient[] = [];
beforeAll(async () => {
  clients = await Promise.all([connectTestClient(), connectTestClient()]);
});
afterAll(async () => {
  await Promise.all(clients.map(closeTestClient));
});

function makeRegistries() {
  const prefix = uniquePrefix('approval');
  const a = createRedisApprovalRegistry({ client: clients[0], prefix });
  const b = createRedisApprovalRegistry({ client: clients[1], prefix });
  onTestFinished(async () => {
    await Promise.all([a.close(), b.close()]);
  });
  return { prefix, a, b };
}

function start(registry: ApprovalRegistry, sessionId = 'chat-1', timeoutMs = 10_000, ownerId?: string) {
  let emitted!: (event: ApprovalRequestEvent) => void;
  const event = new Promise<ApprovalRequestEvent>((resolve) => {
    emitted = resolve;
  });
  const controller = new AbortController();
  const decision = registry.confirm(
    { sessionId, ownerId, toolCallId: 'call-1', toolName: 'createTicket', input: { title: 'x' } },
    { emit: (value) => emitted(value), timeoutMs, signal: controller.signal },
  );
  return { event, decision, controller };
}

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return typeof address === 'object' && address !== null ? address.port : 1;
}

describe('createRedisApprovalRegistry across instances', () => {
  it('wakes the call waiting in instance A when instance B approves it', async () => {
    const { a, b } = makeRegistries();
    const { event, decision } = start(a);
    expect(await b.resolve((await event).approvalId, 'chat-1', true)).toBe(true);
    expect(await decision).toEqual({ approved: true });
  });

  it('wakes the call waiting in instance A when instance B denies it', async () => {
    const { a, b } = makeRegistries();
    const { event, decision } = start(a);
    expect(await b.resolve((await event).approvalId, 'chat-1', false)).toBe(true);
    expect(await decision).toEqual({ approved: false, reason: 'denied' });
  });

  it('answers false from B for another session or owner, and the call stays pending', async () => {
    const { prefix, a, b } = makeRegistries();
    const { event, decision } = start(a, 'chat-1', 10_000, 'alice');
    const { approvalId } = await event;
    expect(await b.resolve(approvalId, 'chat-2', true, 'alice')).toBe(false);
    expect(await b.resolve(approvalId, 'chat-1', true, 'mallory')).toBe(false);
    expect(await clients[1].exists(`${prefix}pending:${approvalId}`)).toBe(1);
    expect(await b.resolve(approvalId, 'chat-1', true, 'alice')).toBe(true);
    expect(await decision).toEqual({ approved: true });
  });

  it('settles a call once when A and B resolve it at the same moment', async () => {
    const { a, b } = makeRegistries();
    const { event, decision } = start(a);
    const { approvalId } = await event;
    const answers = await Promise.all([
      a.resolve(approvalId, 'chat-1', true),
      b.resolve(approvalId, 'chat-1', false),
    ]);
    expect(answers.filter(Boolean)).toHaveLength(1);
    expect(await decision).toEqual(answers[0] ? { approved: true } : { approved: false, reason: 'denied' });
  });

  it('closes a session from B: every call of it waiting in A ends with "closed"', async () => {
    const { a, b } = makeRegistries();
    const first = start(a);
    const second = start(b);
    const other = start(a, 'chat-2');
    await Promise.all([first.event, second.event, other.event]);
    expect(await b.closeSession('chat-1')).toBe(2);
    expect(await first.decision).toEqual({ approved: false, reason: 'closed' });
    expect(await second.decision).toEqual({ approved: false, reason: 'closed' });
    other.controller.abort();
    expect(await other.decision).toEqual({ approved: false, reason: 'aborted' });
  });

  it('records the pending call with its fields and a PX expiry equal to the timeout', async () => {
    const { prefix, a } = makeRegistries();
    const { event, controller, decision } = start(a, 'chat-1', 5_000, 'alice');
    const { approvalId, expiresAt } = await event;
    const key = `${prefix}pending:${approvalId}`;
    expect(await clients[0].hGetAll(key)).toEqual({
      sessionId: 'chat-1',
      ownerId: 'alice',
      toolName: 'createTicket',
      expiresAt: String(expiresAt),
    });
    const ttl = await clients[0].pTTL(key);
    expect(ttl).toBeGreaterThan(4_000);
    expect(ttl).toBeLessThanOrEqual(5_000);
    controller.abort();
    await decision;
  });

  it('leaves no key behind after approve, deny, timeout, abort and closeSession', async () => {
    const { prefix, a, b } = makeRegistries();
    const approved = start(a);
    const denied = start(a);
    const timedOut = start(a, 'chat-1', 60);
    const aborted = start(a);
    const closed = start(a, 'chat-9');
    await b.resolve((await approved.event).approvalId, 'chat-1', true);
    await b.resolve((await denied.event).approvalId, 'chat-1', false);
    await aborted.event;
    aborted.controller.abort();
    await closed.event;
    await b.closeSession('chat-9');
    await Promise.all([
      approved.decision,
      denied.decision,
      timedOut.decision,
      aborted.decision,
      closed.decision,
    ]);
    await expect.poll(() => keysUnder(clients[0], prefix)).toEqual([]);
  });

  it('keeps one subscription per registry, however many calls wait', async () => {
    const { prefix, a } = makeRegistries();
    const calls = [start(a), start(a), start(a), start(a)];
    await Promise.all(calls.map((call) => call.event));
    const reply = (await clients[1].sendCommand(['PUBSUB', 'NUMSUB', `${prefix}events`])) as unknown[];
    expect(Number(reply[1])).toBe(1);
    for (const call of calls) call.controller.abort();
    await Promise.all(calls.map((call) => call.decision));
  });

  it('treats hostile approval ids as unknown', async () => {
    const { a, b } = makeRegistries();
    const { event, decision, controller } = start(a);
    await event;
    for (const id of ['*', '../session:chat-1', 'session:chat-1', '', 'pending:x'])
      expect(await b.resolve(id, 'chat-1', true)).toBe(false);
    controller.abort();
    expect(await decision).toEqual({ approved: false, reason: 'aborted' });
  });
});

describe('createRedisApprovalRegistry when Redis is unreachable', () => {
  it('denies confirm without emitting, and rejects resolve and closeSession', async () => {
    const client = getRedisClient(`redis://127.0.0.1:${await closedPort()}`);
    onTestFinished(() => client.destroy());
    const registry = createRedisApprovalRegistry({ client, prefix: uniquePrefix('approval') });
    onTestFinished(() => registry.close());
    let emitted = 0;
    const decision = await registry.confirm(
      { sessionId: 'chat-1', toolName: 'createTicket', input: {} },
      {
        emit: () => {
          emitted += 1;
        },
        timeoutMs: 10_000,
      },
    );
    expect(decision).toEqual({ approved: false, reason: 'aborted' });
    expect(emitted).toBe(0);
    await expect(registry.resolve('id', 'chat-1', true)).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(registry.closeSession('chat-1')).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});
