import {
  type ApprovalRegistry,
  type ApprovalRequestEvent,
  type ApprovalShellOptions,
  createMemoryApprovalRegistry,
  wrapToolsWithApproval,
} from '@toolgate/engine';
import { denialNoteOf, isEditedOutput, isToolDenial } from '@toolgate/engine/client';
import type { ApprovalDecisionEvent } from '@toolgate/engine/shells';
import type { ApprovalDecision } from '@toolgate/engine/stores';
import { tool } from 'ai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { call } from '../support/call-tool';

function createTable() {
  const createTicket = vi.fn(async ({ title }: { title: string }) => ({
    ticketId: 'TK-000001',
    title,
    status: 'open',
  }));
  const getOrderStatus = vi.fn(async ({ orderId }: { orderId: string }) => ({ orderId, status: 'shipped' }));
  const table = {
    createTicket: tool({
      description: 'Create a support ticket.',
      inputSchema: z.object({ title: z.string().min(1).max(200) }),
      execute: createTicket,
    }),
    getOrderStatus: tool({
      description: 'Look up an order.',
      inputSchema: z.object({ orderId: z.string() }),
      execute: getOrderStatus,
    }),
  };
  return { table, createTicket, getOrderStatus };
}

/** Calls a tool's execute as the AI SDK would (AI SDK 7 requires `context`; `{}` without a contextSchema). */

describe('wrapToolsWithApproval', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A shell whose emit hands each request to `answer`, as the approval card would. */
  function setUp(answer?: (event: ApprovalRequestEvent) => boolean, signal?: AbortSignal) {
    const registry = createMemoryApprovalRegistry();
    const events: ApprovalRequestEvent[] = [];
    const emit = (event: ApprovalRequestEvent) => {
      events.push(event);
      if (answer) queueMicrotask(() => registry.resolve(event.approvalId, 'chat-1', answer(event)));
    };
    const { table, createTicket, getOrderStatus } = createTable();
    const wrapped = wrapToolsWithApproval(table, ['createTicket'], {
      registry,
      sessionId: 'chat-1',
      emit,
      timeoutMs: 60_000,
      signal,
    });
    return { registry, events, table, wrapped, createTicket, getOrderStatus };
  }

  it('runs the tool when the user allows it', async () => {
    const { wrapped, events, createTicket } = setUp(() => true);

    await expect(call(wrapped.createTicket, { title: 'x' }, 'call-1')).resolves.toEqual({
      ticketId: 'TK-000001',
      title: 'x',
      status: 'open',
    });
    expect(createTicket).toHaveBeenCalledOnce();
    expect(events[0]).toMatchObject({
      toolCallId: 'call-1',
      toolName: 'createTicket',
      input: { title: 'x' },
    });
  });

  it('returns a structured denial and does not run the tool when the user denies', async () => {
    const { wrapped, createTicket } = setUp(() => false);

    const result = await call(wrapped.createTicket, { title: 'x' }, 'call-1');
    expect(result).toEqual({
      denied: true,
      reason: 'denied',
      message: expect.stringMatching(/declined.*not retry/s),
    });
    expect(isToolDenial(result)).toBe(true);
    expect(createTicket).not.toHaveBeenCalled();
  });

  it('denies with reason timeout when nobody answers, after emitting expiresAt = now + timeout', async () => {
    const { wrapped, events, registry, createTicket } = setUp();

    const result = call(wrapped.createTicket, { title: 'x' }, 'call-1');
    expect(events[0]?.expiresAt).toBe(1_060_000);
    await vi.advanceTimersByTimeAsync(60_000);

    await expect(result).resolves.toMatchObject({
      denied: true,
      reason: 'timeout',
      message: expect.stringMatching(/expired/),
    });
    expect(createTicket).not.toHaveBeenCalled();
    expect(registry.pendingCount()).toBe(0);
  });

  it('denies with reason aborted when the call is aborted, leaving nothing pending and no timer', async () => {
    const { wrapped, registry, createTicket } = setUp();
    const controller = new AbortController();

    const result = call(wrapped.createTicket, { title: 'x' }, 'call-1', controller.signal);
    expect(registry.pendingCount()).toBe(1);
    controller.abort();

    await expect(result).resolves.toMatchObject({ denied: true, reason: 'aborted' });
    expect(createTicket).not.toHaveBeenCalled();
    expect(registry.pendingCount()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('denies with reason aborted when the shell signal (the request) aborts', async () => {
    const controller = new AbortController();
    const { wrapped, registry } = setUp(undefined, controller.signal);

    const result = call(wrapped.createTicket, { title: 'x' }, 'call-1', new AbortController().signal);
    controller.abort();

    await expect(result).resolves.toMatchObject({ denied: true, reason: 'aborted' });
    expect(registry.pendingCount()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('denies with reason closed when the session is closed', async () => {
    const { wrapped, registry } = setUp();

    const result = call(wrapped.createTicket, { title: 'x' }, 'call-1');
    expect(registry.closeSession('chat-1')).toBe(1);
    await expect(result).resolves.toMatchObject({ denied: true, reason: 'closed' });
  });

  it('leaves tools that are not listed untouched', async () => {
    const { wrapped, table, events, getOrderStatus } = setUp();

    expect(wrapped.getOrderStatus).toBe(table.getOrderStatus);
    await call(wrapped.getOrderStatus, { orderId: 'A1001' }, 'call-1');
    expect(getOrderStatus).toHaveBeenCalledOnce();
    expect(events).toHaveLength(0);
  });

  it('passes description and inputSchema through as the same references', () => {
    const { wrapped, table } = setUp();
    expect(wrapped.createTicket.description).toBe(table.createTicket.description);
    expect(wrapped.createTicket.inputSchema).toBe(table.createTicket.inputSchema);
  });
});

describe('isToolDenial', () => {
  it('recognises only the denial shape', () => {
    expect(isToolDenial({ denied: true, reason: 'timeout', message: 'expired' })).toBe(true);
    expect(isToolDenial({ denied: true, reason: 'nope', message: 'x' })).toBe(false);
    expect(isToolDenial({ ticketId: 'TK-000001' })).toBe(false);
    expect(isToolDenial(null)).toBe(false);
  });
});

describe('wrapToolsWithApproval beyond allow / deny', () => {
  /** A registry that answers every call with `decision` at once, as the durable one does from its row. */
  function decided(decision: ApprovalDecision): ApprovalRegistry {
    return {
      confirm: (async () => decision) as ApprovalRegistry['confirm'],
      resolve: () => false,
      extend: () => false,
      closeSession: () => 0,
    };
  }

  function wrap(decision: ApprovalDecision, extra: Partial<ApprovalShellOptions> = {}) {
    const { table, createTicket } = createTable();
    const events: ApprovalDecisionEvent[] = [];
    const wrapped = wrapToolsWithApproval(table, ['createTicket'], {
      registry: decided(decision),
      sessionId: 'chat-1',
      emit: () => undefined,
      timeoutMs: 1_000,
      onDecision: (event) => events.push(event),
      ...extra,
    });
    return { wrapped, createTicket, events };
  }

  it('runs the tool with the edited input and tells the model what ran', async () => {
    const { wrapped, createTicket, events } = wrap({ approved: true, input: { title: 'edited' } });
    const output = await call(wrapped.createTicket, { title: 'proposed' }, 'call-1');
    expect(createTicket).toHaveBeenCalledWith({ title: 'edited' }, expect.anything());
    expect(output).toMatchObject({ title: 'edited', editedInput: { title: 'edited' } });
    expect(isEditedOutput(output)).toBe(true);
    expect(events).toEqual([{ toolCallId: 'call-1', edited: true }]);
  });

  it('puts the person’s note in the denial, where a later turn can still read it', async () => {
    const { wrapped, createTicket, events } = wrap({
      approved: false,
      reason: 'denied',
      note: 'say "A1002"',
    });
    const output = await call(wrapped.createTicket, { title: 'x' }, 'call-2');
    expect(createTicket).not.toHaveBeenCalled();
    expect(output).toMatchObject({ denied: true, reason: 'denied', note: 'say "A1002"' });
    expect(denialNoteOf((output as { message: string }).message)).toBe('say "A1002"');
    expect(events).toEqual([{ toolCallId: 'call-2', note: 'say "A1002"' }]);
  });

  it('skips the card when a rule allows the tool, and says so', async () => {
    const confirm = vi.fn();
    const { table, createTicket } = createTable();
    const events: ApprovalDecisionEvent[] = [];
    const wrapped = wrapToolsWithApproval(table, ['createTicket'], {
      registry: { ...decided({ approved: false, reason: 'denied' }), confirm },
      sessionId: 'chat-1',
      emit: () => undefined,
      timeoutMs: 1_000,
      approvedByRule: (toolName) => toolName === 'createTicket',
      onDecision: (event) => events.push(event),
    });
    expect(await call(wrapped.createTicket, { title: 'ruled' }, 'call-3')).toMatchObject({ title: 'ruled' });
    expect(confirm).not.toHaveBeenCalled();
    expect(createTicket).toHaveBeenCalledTimes(1);
    expect(events).toEqual([{ toolCallId: 'call-3', byRule: true }]);
  });
});
