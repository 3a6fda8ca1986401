import { describe, expect, it } from 'vitest';
import type { ApprovalRegistry, ApprovalRequest, ApprovalRequestEvent } from '../stores/approval-registry';

/**
 * Builds a fresh registry for one test. Implementations register their own
 * cleanup (e.g. with `onTestFinished`) and must not share pending calls between calls.
 */
export type MakeApprovalRegistry = () => ApprovalRegistry | Promise<ApprovalRegistry>;

const longTimeoutMs = 10_000;

function request(overrides: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    sessionId: 'chat-1',
    toolCallId: 'call-1',
    toolName: 'sendInvoice',
    input: { title: 'x' },
    ...overrides,
  };
}

/** Starts a confirm and resolves with its emitted event, so a test can act on the approval id. */
function start(
  registry: ApprovalRegistry,
  overrides: Partial<ApprovalRequest> = {},
  timeoutMs = longTimeoutMs,
) {
  let emitted!: (event: ApprovalRequestEvent) => void;
  const event = new Promise<ApprovalRequestEvent>((resolve) => {
    emitted = resolve;
  });
  const controller = new AbortController();
  const decision = registry.confirm(request(overrides), {
    emit: (value) => emitted(value),
    timeoutMs,
    signal: controller.signal,
  });
  return { event, decision, controller };
}

/**
 * The behaviour every ApprovalRegistry implementation shares:
 * allow, deny, the fail-closed paths (timeout, abort, closed session, failed
 * emit), session and owner checks, and already-settled ids.
 */
export function describeApprovalRegistryContract(name: string, makeRegistry: MakeApprovalRegistry): void {
  const make = () => Promise.resolve(makeRegistry());

  describe(`${name} (ApprovalRegistry contract)`, () => {
    it('emits the request once and resolves approved on allow', async () => {
      const registry = await make();
      const before = Date.now();
      const events: ApprovalRequestEvent[] = [];
      const decision = registry.confirm(request(), {
        emit: (event) => {
          events.push(event);
        },
        timeoutMs: longTimeoutMs,
      });
      await expect.poll(() => events.length).toBe(1);
      const [event] = events;
      expect(event).toMatchObject({ toolCallId: 'call-1', toolName: 'sendInvoice', input: { title: 'x' } });
      expect(typeof event.approvalId).toBe('string');
      expect(event.expiresAt).toBeGreaterThanOrEqual(before + longTimeoutMs);
      expect(event.expiresAt).toBeLessThanOrEqual(Date.now() + longTimeoutMs);
      expect(await registry.resolve(event.approvalId, 'chat-1', true)).toBe(true);
      expect(await decision).toEqual({ approved: true });
      expect(events).toHaveLength(1);
    });

    it('resolves denied with reason "denied" on deny', async () => {
      const registry = await make();
      const { event, decision } = start(registry);
      expect(await registry.resolve((await event).approvalId, 'chat-1', false)).toBe(true);
      expect(await decision).toEqual({ approved: false, reason: 'denied' });
    });

    it('accepts the positional form confirm(request, emit, timeoutMs, signal)', async () => {
      const registry = await make();
      let approvalId = '';
      const decision = registry.confirm(
        request(),
        (event) => {
          approvalId = event.approvalId;
        },
        longTimeoutMs,
      );
      await expect.poll(() => approvalId).not.toBe('');
      expect(await registry.resolve(approvalId, 'chat-1', true)).toBe(true);
      expect(await decision).toEqual({ approved: true });
    });

    it('gives every request its own unguessable id', async () => {
      const registry = await make();
      const first = start(registry);
      const second = start(registry);
      const [a, b] = [(await first.event).approvalId, (await second.event).approvalId];
      expect(a).not.toBe(b);
      expect(a.length).toBeGreaterThanOrEqual(32);
      expect(await registry.closeSession('chat-1')).toBe(2);
      await Promise.all([first.decision, second.decision]);
    });

    it('denies with "timeout" when nobody answers, and forgets the call', async () => {
      const registry = await make();
      const { event, decision } = start(registry, {}, 80);
      const { approvalId } = await event;
      expect(await decision).toEqual({ approved: false, reason: 'timeout' });
      expect(await registry.resolve(approvalId, 'chat-1', true)).toBe(false);
    });

    it('denies with "aborted" when the signal aborts, leaving nothing pending', async () => {
      const registry = await make();
      const { event, decision, controller } = start(registry);
      const { approvalId } = await event;
      controller.abort();
      expect(await decision).toEqual({ approved: false, reason: 'aborted' });
      expect(await registry.resolve(approvalId, 'chat-1', true)).toBe(false);
      expect(await registry.closeSession('chat-1')).toBe(0);
    });

    it('denies with "aborted" at once when the signal is already aborted', async () => {
      const registry = await make();
      const controller = new AbortController();
      controller.abort();
      const decision = await registry.confirm(request(), {
        emit: () => {},
        timeoutMs: longTimeoutMs,
        signal: controller.signal,
      });
      expect(decision).toEqual({ approved: false, reason: 'aborted' });
    });

    it('denies when emit throws or rejects: a request nobody saw cannot be approved', async () => {
      const registry = await make();
      const thrown = await registry.confirm(request(), {
        emit: () => {
          throw new Error('stream closed');
        },
        timeoutMs: longTimeoutMs,
      });
      expect(thrown.approved).toBe(false);
      const rejected = await registry.confirm(request(), {
        emit: () => Promise.reject(new Error('stream closed')),
        timeoutMs: longTimeoutMs,
      });
      expect(rejected.approved).toBe(false);
      expect(await registry.closeSession('chat-1')).toBe(0);
    });

    it('answers false to another session and keeps the call pending', async () => {
      const registry = await make();
      const { event, decision } = start(registry);
      const { approvalId } = await event;
      expect(await registry.resolve(approvalId, 'chat-2', true)).toBe(false);
      expect(await registry.resolve(approvalId, 'chat-1', true)).toBe(true);
      expect(await decision).toEqual({ approved: true });
    });

    it('checks the owner when the request has one', async () => {
      const registry = await make();
      const { event, decision } = start(registry, { ownerId: 'alice' });
      const { approvalId } = await event;
      expect(await registry.resolve(approvalId, 'chat-1', true, 'mallory')).toBe(false);
      expect(await registry.resolve(approvalId, 'chat-1', true)).toBe(false);
      expect(await registry.resolve(approvalId, 'chat-1', false, 'alice')).toBe(true);
      expect(await decision).toEqual({ approved: false, reason: 'denied' });
    });

    it('answers false to an unknown id', async () => {
      const registry = await make();
      expect(await registry.resolve('no-such-id', 'chat-1', true)).toBe(false);
      expect(await registry.resolve('', 'chat-1', true)).toBe(false);
    });

    it('answers false to an id already settled', async () => {
      const registry = await make();
      const { event, decision } = start(registry);
      const { approvalId } = await event;
      expect(await registry.resolve(approvalId, 'chat-1', true)).toBe(true);
      expect(await registry.resolve(approvalId, 'chat-1', false)).toBe(false);
      expect(await decision).toEqual({ approved: true });
    });

    it('closeSession denies every pending call of that session with "closed" and no other', async () => {
      const registry = await make();
      const first = start(registry);
      const second = start(registry);
      const other = start(registry, { sessionId: 'chat-2' });
      await Promise.all([first.event, second.event, other.event]);
      expect(await registry.closeSession('chat-1')).toBe(2);
      expect(await first.decision).toEqual({ approved: false, reason: 'closed' });
      expect(await second.decision).toEqual({ approved: false, reason: 'closed' });
      expect(await registry.closeSession('chat-1')).toBe(0);
      expect(await registry.resolve((await other.event).approvalId, 'chat-2', true)).toBe(true);
      expect(await other.decision).toEqual({ approved: true });
    });

    it('extend moves the deadline of the waiting call: it outlives its first timeout', async () => {
      const registry = await make();
      const { event, decision } = start(registry, {}, 300);
      const { approvalId, expiresAt } = await event;
      expect(await registry.extend(approvalId, 'chat-1', expiresAt + 60_000)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(await registry.resolve(approvalId, 'chat-1', true)).toBe(true);
      expect(await decision).toEqual({ approved: true });
    });

    it('extend answers false to another session, owner or unknown id, and leaves the deadline alone', async () => {
      const registry = await make();
      const { event, decision } = start(registry, { ownerId: 'alice' }, 300);
      const { approvalId, expiresAt } = await event;
      expect(await registry.extend(approvalId, 'chat-2', expiresAt + 60_000, 'alice')).toBe(false);
      expect(await registry.extend(approvalId, 'chat-1', expiresAt + 60_000, 'bob')).toBe(false);
      expect(await registry.extend('unknown', 'chat-1', expiresAt + 60_000, 'alice')).toBe(false);
      expect(await decision).toEqual({ approved: false, reason: 'timeout' });
    });
  });
}
