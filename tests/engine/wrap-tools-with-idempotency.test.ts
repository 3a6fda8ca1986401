import { createMemoryIdempotencyStore, wrapToolsWithIdempotency, writeExecutionOf } from '@toolgate/engine';
import { downstreamIdempotencyKey } from '@toolgate/engine/shells';
import { tool } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { writeToolNames } from '@/lib/tools/tool-catalog';
import { call } from '../support/call-tool';

function createTable() {
  let ticketCount = 0;
  const createTicket = vi.fn(async ({ title }: { title: string }) => {
    ticketCount += 1;
    return { ticketId: `TK-${String(ticketCount).padStart(6, '0')}`, title, status: 'open' as const };
  });
  const listTodos = vi.fn(async () => ({ todos: [{ id: 1, title: 'a', status: 'open' }] }));
  const table = {
    createTicket: tool({
      description: 'Create a support ticket.',
      inputSchema: z.object({ title: z.string().min(1).max(200), detail: z.string().optional() }),
      execute: createTicket,
    }),
    listTodos: tool({
      description: 'List the todos.',
      inputSchema: z.object({}),
      execute: listTodos,
    }),
  };
  return { table, createTicket, listTodos };
}

/** Calls a tool's execute as the AI SDK would (AI SDK 7 requires `context`; `{}` without a contextSchema). */

describe('wrapToolsWithIdempotency', () => {
  it('guards the write tools by default', () => {
    expect([...writeToolNames].sort()).toEqual(['addTodo', 'createTicket', 'issueRefund']);
  });

  it('answers a repeated write with the first result and executes once', async () => {
    const { table, createTicket } = createTable();
    const wrapped = wrapToolsWithIdempotency(table, createMemoryIdempotencyStore(), {
      scope: 'chat-1',
      tools: writeToolNames,
    });

    const first = await call(wrapped.createTicket, { title: 'Broken lid' }, 'call-1');
    const second = await call(wrapped.createTicket, { title: 'Broken lid' }, 'call-2');

    expect(second).toBe(first);
    expect(createTicket).toHaveBeenCalledTimes(1);
  });

  it('gives the tool its idempotency key: the same for a repeat in the chat, another elsewhere', async () => {
    const keys: (string | undefined)[] = [];
    const table = {
      createTicket: tool({
        description: 'Create a support ticket.',
        inputSchema: z.object({ title: z.string() }),
        execute: async (_input, options) => {
          keys.push(writeExecutionOf(options)?.idempotencyKey);
          return { ok: true };
        },
      }),
    };
    // A new store each time: the key comes from the call, not from what the store remembers.
    const run = (scope: string, toolCallId: string) =>
      call(
        wrapToolsWithIdempotency(table, createMemoryIdempotencyStore(), { scope, tools: writeToolNames })
          .createTicket,
        { title: 'same' },
        toolCallId,
      );
    await run('chat-1', 'call-1');
    await run('chat-1', 'call-2');
    await run('chat-2', 'call-3');
    expect(keys[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(keys[0]).toBe(downstreamIdempotencyKey('chat-1', 'createTicket', { title: 'same' }));
  });

  it('does not wrap reads by default, so they stay fresh', async () => {
    const { table, listTodos } = createTable();
    const wrapped = wrapToolsWithIdempotency(table, createMemoryIdempotencyStore(), {
      scope: 'chat-1',
      tools: writeToolNames,
    });

    expect(wrapped.listTodos).toBe(table.listTodos);
    await call(wrapped.listTodos, {}, 'call-1');
    await call(wrapped.listTodos, {}, 'call-2');
    expect(listTodos).toHaveBeenCalledTimes(2);
  });

  it('guards exactly the tools named in `tools`', async () => {
    const { table, createTicket, listTodos } = createTable();
    const wrapped = wrapToolsWithIdempotency(table, createMemoryIdempotencyStore(), {
      scope: 'chat-1',
      tools: new Set(['listTodos']),
    });

    expect(wrapped.createTicket).toBe(table.createTicket);
    await call(wrapped.listTodos, {}, 'call-1');
    await call(wrapped.listTodos, {}, 'call-2');
    expect(listTodos).toHaveBeenCalledTimes(1);
    await call(wrapped.createTicket, { title: 'x' }, 'call-3');
    await call(wrapped.createTicket, { title: 'x' }, 'call-4');
    expect(createTicket).toHaveBeenCalledTimes(2);
  });

  it('passes description, inputSchema and the other fields through as the same references', () => {
    const { table } = createTable();
    const wrapped = wrapToolsWithIdempotency(table, createMemoryIdempotencyStore(), {
      scope: 'chat-1',
      tools: writeToolNames,
    });

    expect(wrapped).not.toBe(table);
    expect(wrapped.createTicket).not.toBe(table.createTicket);
    expect(wrapped.createTicket.description).toBe(table.createTicket.description);
    expect(wrapped.createTicket.inputSchema).toBe(table.createTicket.inputSchema);
    expect(Object.keys(wrapped.createTicket).sort()).toEqual(Object.keys(table.createTicket).sort());
    expect(wrapped.createTicket.execute).not.toBe(table.createTicket.execute);
  });

  it('ignores names that are not own tools of the table', () => {
    const { table } = createTable();
    const wrapped = wrapToolsWithIdempotency(table, createMemoryIdempotencyStore(), {
      scope: 'chat-1',
      tools: ['constructor', '__proto__', 'toString', 'missingTool'],
    });

    expect(Object.keys(wrapped)).toEqual(['createTicket', 'listTodos']);
    expect(Object.getPrototypeOf(wrapped)).toBe(Object.prototype);
  });

  it('passes tools without execute through untouched', () => {
    const withoutExecute = tool({ description: 'Client-side tool.', inputSchema: z.object({}) });
    const table = { createTicket: withoutExecute };
    const wrapped = wrapToolsWithIdempotency(table, createMemoryIdempotencyStore(), {
      scope: 'chat-1',
      tools: writeToolNames,
    });
    expect(wrapped.createTicket).toBe(withoutExecute);
  });

  it('reports a replay to onReplay without changing the result', async () => {
    const { table } = createTable();
    const onReplay = vi.fn();
    const wrapped = wrapToolsWithIdempotency(table, createMemoryIdempotencyStore(), {
      scope: 'chat-1',
      tools: writeToolNames,
      onReplay,
    });

    const first = await call(wrapped.createTicket, { title: 'x' }, 'call-1');
    expect(onReplay).not.toHaveBeenCalled();
    const replayed = await call(wrapped.createTicket, { title: 'x' }, 'call-2');

    expect(replayed).toBe(first);
    expect(replayed).toEqual({ ticketId: 'TK-000001', title: 'x', status: 'open' });
    expect(onReplay).toHaveBeenCalledExactlyOnceWith({
      toolCallId: 'call-2',
      toolName: 'createTicket',
      scope: 'chat-1',
    });
  });

  it('caches the final output of a streaming tool, not the iterable', async () => {
    const streaming = tool({
      description: 'Streams progress.',
      inputSchema: z.object({ title: z.string() }),
      async *execute({ title }) {
        yield { status: 'working', title };
        yield { status: 'done', title };
      },
    });
    const wrapped = wrapToolsWithIdempotency({ addTodo: streaming }, createMemoryIdempotencyStore(), {
      scope: 'chat-1',
      tools: writeToolNames,
    });

    await expect(call(wrapped.addTodo, { title: 'x' }, 'call-1')).resolves.toEqual({
      status: 'done',
      title: 'x',
    });
    await expect(call(wrapped.addTodo, { title: 'x' }, 'call-2')).resolves.toEqual({
      status: 'done',
      title: 'x',
    });
  });
});
