import { type ApprovalRequestEvent, createMemoryApprovalRegistry } from '@toolgate/engine';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const request = {
  sessionId: 'chat-1',
  toolCallId: 'call-1',
  toolName: 'createTicket',
  input: { title: 'x' },
};

function sequentialIds() {
  let count = 0;
  return () => `approval-${++count}`;
}

function recordEmits() {
  const events: ApprovalRequestEvent[] = [];
  return { events, emit: (event: ApprovalRequestEvent) => void events.push(event) };
}

describe('createMemoryApprovalRegistry', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('emits the request and approves when the right session allows it', async () => {
    const registry = createMemoryApprovalRegistry({ generateId: sequentialIds() });
    const { events, emit } = recordEmits();

    const decision = registry.confirm(request, { emit, timeoutMs: 60_000 });
    expect(events).toEqual([
      {
        approvalId: 'approval-1',
        toolCallId: 'call-1',
        toolName: 'createTicket',
        input: { title: 'x' },
        expiresAt: 1_060_000,
      },
    ]);
    expect(registry.resolve('approval-1', 'chat-1', true)).toBe(true);

    await expect(decision).resolves.toEqual({ approved: true });
    expect(registry.pendingCount()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('denies with reason denied when the person says no', async () => {
    const registry = createMemoryApprovalRegistry({ generateId: sequentialIds() });
    const decision = registry.confirm(request, { emit: () => {}, timeoutMs: 60_000 });
    registry.resolve('approval-1', 'chat-1', false);
    await expect(decision).resolves.toEqual({ approved: false, reason: 'denied' });
  });

  it('denies with reason timeout after timeoutMs and emits expiresAt = now + timeout', async () => {
    const registry = createMemoryApprovalRegistry({ now: () => 5_000 });
    const { events, emit } = recordEmits();

    const decision = registry.confirm(request, { emit, timeoutMs: 60_000 });
    expect(events[0]?.expiresAt).toBe(65_000);
    vi.advanceTimersByTime(59_999);
    expect(registry.pendingCount()).toBe(1);
    vi.advanceTimersByTime(1);

    await expect(decision).resolves.toEqual({ approved: false, reason: 'timeout' });
    expect(registry.pendingCount()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    expect(registry.resolve(events[0]?.approvalId ?? '', 'chat-1', true)).toBe(false);
  });

  it('denies with reason aborted when the signal aborts, leaving no entry and no timer', async () => {
    const registry = createMemoryApprovalRegistry();
    const controller = new AbortController();

    const decision = registry.confirm(request, {
      emit: () => {},
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    expect(registry.pendingCount()).toBe(1);
    expect(vi.getTimerCount()).toBe(1);
    controller.abort();

    await expect(decision).resolves.toEqual({ approved: false, reason: 'aborted' });
    expect(registry.pendingCount()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('denies an already aborted signal at once without emitting', async () => {
    const registry = createMemoryApprovalRegistry();
    const emit = vi.fn();

    const decision = registry.confirm(request, { emit, timeoutMs: 60_000, signal: AbortSignal.abort() });
    await expect(decision).resolves.toEqual({ approved: false, reason: 'aborted' });
    expect(emit).not.toHaveBeenCalled();
    expect(registry.pendingCount()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('removes its abort listener once settled', async () => {
    const registry = createMemoryApprovalRegistry({ generateId: sequentialIds() });
    const signal = new AbortController().signal;
    const removeEventListener = vi.spyOn(signal, 'removeEventListener');

    const decision = registry.confirm(request, { emit: () => {}, timeoutMs: 60_000, signal });
    registry.resolve('approval-1', 'chat-1', true);
    await decision;
    expect(removeEventListener).toHaveBeenCalledWith('abort', expect.any(Function));
  });

  it('answers a resolve from another session with false, like an unknown id, and keeps the call pending', async () => {
    const registry = createMemoryApprovalRegistry({ generateId: sequentialIds() });
    const decision = registry.confirm(request, { emit: () => {}, timeoutMs: 60_000 });

    expect(registry.resolve('approval-1', 'chat-2', true)).toBe(
      registry.resolve('no-such-id', 'chat-1', true),
    );
    expect(registry.resolve('approval-1', 'chat-2', true)).toBe(false);
    expect(registry.pendingCount()).toBe(1);

    expect(registry.resolve('approval-1', 'chat-1', true)).toBe(true);
    await expect(decision).resolves.toEqual({ approved: true });
  });

  it('requires the owner when the request has one', async () => {
    const registry = createMemoryApprovalRegistry({ generateId: sequentialIds() });
    const decision = registry.confirm(
      { ...request, ownerId: 'user-1' },
      { emit: () => {}, timeoutMs: 60_000 },
    );

    expect(registry.resolve('approval-1', 'chat-1', true)).toBe(false);
    expect(registry.resolve('approval-1', 'chat-1', true, 'user-2')).toBe(false);
    expect(registry.pendingCount()).toBe(1);
    expect(registry.resolve('approval-1', 'chat-1', true, 'user-1')).toBe(true);
    await expect(decision).resolves.toEqual({ approved: true });
  });

  it('answers false for an id that is already settled', async () => {
    const registry = createMemoryApprovalRegistry({ generateId: sequentialIds() });
    const decision = registry.confirm(request, { emit: () => {}, timeoutMs: 60_000 });

    expect(registry.resolve('approval-1', 'chat-1', false)).toBe(true);
    expect(registry.resolve('approval-1', 'chat-1', true)).toBe(false);
    await expect(decision).resolves.toEqual({ approved: false, reason: 'denied' });
  });

  it('denies every pending call of a closed session with reason closed', async () => {
    const registry = createMemoryApprovalRegistry();
    const first = registry.confirm(request, { emit: () => {}, timeoutMs: 60_000 });
    const second = registry.confirm(
      { ...request, toolCallId: 'call-2' },
      { emit: () => {}, timeoutMs: 60_000 },
    );
    const other = registry.confirm(
      { ...request, sessionId: 'chat-2' },
      { emit: () => {}, timeoutMs: 60_000 },
    );

    expect(registry.closeSession('chat-1')).toBe(2);
    await expect(first).resolves.toEqual({ approved: false, reason: 'closed' });
    await expect(second).resolves.toEqual({ approved: false, reason: 'closed' });
    expect(registry.pendingCount()).toBe(1);
    expect(vi.getTimerCount()).toBe(1);
    expect(registry.closeSession('chat-2')).toBe(1);
    await expect(other).resolves.toEqual({ approved: false, reason: 'closed' });
  });

  it('denies (reason aborted: the request never reached the person) when emit throws, and cleans up', async () => {
    const registry = createMemoryApprovalRegistry();
    const emit = () => {
      throw new Error('stream closed');
    };

    await expect(registry.confirm(request, { emit, timeoutMs: 60_000 })).resolves.toMatchObject({
      approved: false,
    });
    expect(registry.pendingCount()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('denies with reason aborted when emit rejects, and cleans up', async () => {
    const registry = createMemoryApprovalRegistry();
    const emit = async () => {
      throw new Error('stream closed');
    };

    await expect(registry.confirm(request, { emit, timeoutMs: 60_000 })).resolves.toMatchObject({
      approved: false,
    });
    expect(registry.pendingCount()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('accepts the positional form confirm(request, emit, timeoutMs, signal)', async () => {
    const registry = createMemoryApprovalRegistry({ generateId: sequentialIds() });
    const { events, emit } = recordEmits();
    const controller = new AbortController();

    const approved = registry.confirm(request, emit, 60_000);
    registry.resolve('approval-1', 'chat-1', true);
    await expect(approved).resolves.toEqual({ approved: true });

    const timedOut = registry.confirm(request, emit, 1_000);
    vi.advanceTimersByTime(1_000);
    await expect(timedOut).resolves.toEqual({ approved: false, reason: 'timeout' });

    const aborted = registry.confirm(request, emit, 60_000, controller.signal);
    controller.abort();
    await expect(aborted).resolves.toEqual({ approved: false, reason: 'aborted' });
    expect(events).toHaveLength(3);
    expect(registry.pendingCount()).toBe(0);
  });

  it('makes unguessable ids by default', () => {
    const registry = createMemoryApprovalRegistry();
    const { events, emit } = recordEmits();
    registry.confirm(request, { emit, timeoutMs: 60_000 });
    registry.confirm(request, { emit, timeoutMs: 60_000 });

    expect(events[0]?.approvalId).toMatch(/^[0-9a-f-]{36}$/);
    expect(events[0]?.approvalId).not.toBe(events[1]?.approvalId);
    registry.closeSession('chat-1');
  });

  it('rejects a timeout that setTimeout cannot hold', async () => {
    const registry = createMemoryApprovalRegistry();
    await expect(registry.confirm(request, { emit: () => {}, timeoutMs: 0 })).rejects.toThrow(TypeError);
    await expect(registry.confirm(request, { emit: () => {}, timeoutMs: 2 ** 31 })).rejects.toThrow(
      TypeError,
    );
    expect(registry.pendingCount()).toBe(0);
  });
});
