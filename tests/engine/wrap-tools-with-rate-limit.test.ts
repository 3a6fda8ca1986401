import { wrapToolsWithRateLimit } from '@toolgate/engine';
import { isToolRateLimited } from '@toolgate/engine/client';
import type { ToolRateLimiter } from '@toolgate/engine/shells';
import { tool } from 'ai';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { call } from '../support/call-tool';

function createTable() {
  const createTicket = vi.fn(async ({ title }: { title: string }) => ({ ticketId: 'TK-000001', title }));
  const listTodos = vi.fn(async () => ({ todos: [] }));
  const table = {
    createTicket: tool({
      description: 'Create a support ticket.',
      inputSchema: z.object({ title: z.string() }),
      execute: createTicket,
    }),
    listTodos: tool({ description: 'List the todos.', inputSchema: z.object({}), execute: listTodos }),
  };
  return { table, createTicket, listTodos };
}

/** Calls a tool's execute as the AI SDK would (AI SDK 7 requires `context`). */

afterEach(() => {
  vi.restoreAllMocks();
});

describe('wrapToolsWithRateLimit', () => {
  it('runs calls within the budget and refuses the next one without running it', async () => {
    const { table, createTicket } = createTable();
    const limiter = new RateLimiterMemory({ points: 2, duration: 60 });
    const limited = wrapToolsWithRateLimit(table, { limiter, key: 'chat-1' });

    expect(await call(limited.createTicket, { title: 'a' }, 'call-1')).toMatchObject({
      ticketId: 'TK-000001',
    });
    expect(await call(limited.createTicket, { title: 'b' }, 'call-2')).toMatchObject({
      ticketId: 'TK-000001',
    });
    const third = await call(limited.createTicket, { title: 'c' }, 'call-3');

    expect(third).toEqual({
      rateLimited: true,
      reason: 'limit',
      retryAfterMs: expect.any(Number),
      message: expect.stringMatching(/Do not retry it now; tell the user to wait/),
    });
    expect(isToolRateLimited(third)).toBe(true);
    expect((third as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(55_000);
    expect(createTicket).toHaveBeenCalledTimes(2);
  });

  it('spends one budget across every tool of the table', async () => {
    const { table, listTodos } = createTable();
    const limited = wrapToolsWithRateLimit(table, {
      limiter: new RateLimiterMemory({ points: 1, duration: 60 }),
      key: 'chat-1',
    });

    await call(limited.createTicket, { title: 'a' }, 'call-1');
    expect(await call(limited.listTodos, {}, 'call-2')).toMatchObject({ rateLimited: true });
    expect(listTodos).not.toHaveBeenCalled();
  });

  it('keeps one budget per key, so another chat is unaffected', async () => {
    const { table, createTicket } = createTable();
    const limiter = new RateLimiterMemory({ points: 1, duration: 60 });
    const first = wrapToolsWithRateLimit(table, { limiter, key: 'chat-1' });
    const second = wrapToolsWithRateLimit(table, { limiter, key: 'chat-2' });

    await call(first.createTicket, { title: 'a' }, 'call-1');
    expect(await call(first.createTicket, { title: 'a' }, 'call-2')).toMatchObject({ rateLimited: true });
    expect(await call(second.createTicket, { title: 'a' }, 'call-3')).toMatchObject({
      ticketId: 'TK-000001',
    });
    expect(createTicket).toHaveBeenCalledTimes(2);
  });

  it('fails closed: a limiter that cannot answer refuses the call, logs, and never runs the tool', async () => {
    const { table, createTicket } = createTable();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const broken: ToolRateLimiter = {
      consume: async () => Promise.reject(new Error('Redis connection is not ready')),
    };
    const limited = wrapToolsWithRateLimit(table, { limiter: broken, key: 'chat-1' });

    const result = await call(limited.createTicket, { title: 'a' }, 'call-1');

    expect(result).toMatchObject({ rateLimited: true, reason: 'unavailable', retryAfterMs: 5_000 });
    expect(createTicket).not.toHaveBeenCalled();
    expect(logged).toHaveBeenCalledOnce();
  });

  it('limits only the named tools when `tools` is given', async () => {
    const { table, listTodos } = createTable();
    const limited = wrapToolsWithRateLimit(table, {
      limiter: new RateLimiterMemory({ points: 1, duration: 60 }),
      key: 'chat-1',
      tools: ['createTicket'],
    });

    expect(limited.listTodos).toBe(table.listTodos);
    await call(limited.listTodos, {}, 'call-1');
    await call(limited.listTodos, {}, 'call-2');
    expect(listTodos).toHaveBeenCalledTimes(2);
  });

  it('passes description and inputSchema through untouched', () => {
    const { table } = createTable();
    const limited = wrapToolsWithRateLimit(table, {
      limiter: new RateLimiterMemory({ points: 1, duration: 60 }),
      key: 'chat-1',
    });
    expect(limited.createTicket.description).toBe(table.createTicket.description);
    expect(limited.createTicket.inputSchema).toBe(table.createTicket.inputSchema);
  });
});

describe('isToolRateLimited', () => {
  it('tells a refusal apart from ordinary output', () => {
    expect(isToolRateLimited({ rateLimited: true, retryAfterMs: 1, message: 'wait' })).toBe(true);
    expect(isToolRateLimited({ rateLimited: 'yes' })).toBe(false);
    expect(isToolRateLimited(null)).toBe(false);
  });
});
