import {
  type ApprovalRequestEvent,
  composeToolShells,
  createMemoryApprovalRegistry,
  createMemoryIdempotencyStore,
  type ToolShell,
  wrapToolsWithApproval,
  wrapToolsWithIdempotency,
} from '@toolgate/engine';
import { isToolDenial } from '@toolgate/engine/client';
import { tool } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { writeToolNames } from '@/lib/tools/tool-catalog';
import { call } from '../support/call-tool';

function createTable() {
  let created = 0;
  const createTicket = vi.fn(async ({ title }: { title: string }) => {
    created += 1;
    return { ticketId: `TK-${String(created).padStart(6, '0')}`, title, status: 'open' };
  });
  const table = {
    createTicket: tool({
      description: 'Create a support ticket.',
      inputSchema: z.object({ title: z.string().min(1).max(200) }),
      execute: createTicket,
    }),
  };
  return { table, createTicket };
}
type Table = ReturnType<typeof createTable>['table'];

/** Calls a tool's execute as the AI SDK would (AI SDK 7 requires `context`; `{}` without a contextSchema). */

/** A shell that records when it sees a call, then forwards it. */
function recordingShell(name: string, log: string[]): ToolShell<Table> {
  return (table) => ({
    createTicket: {
      ...table.createTicket,
      execute: (input, options) => {
        log.push(name);
        return call(table.createTicket, input, options.toolCallId) as ReturnType<
          NonNullable<Table['createTicket']['execute']>
        >;
      },
    },
  });
}

/** Approval and idempotency shells over one registry and store, with a person who answers from `answers`. */
function hardening() {
  const registry = createMemoryApprovalRegistry();
  const store = createMemoryIdempotencyStore();
  const answers: boolean[] = [];
  const emit = (event: ApprovalRequestEvent) => {
    const approved = answers.shift() ?? false;
    queueMicrotask(() => registry.resolve(event.approvalId, 'chat-1', approved));
  };
  const approval: ToolShell<Table> = (table) =>
    wrapToolsWithApproval(table, ['createTicket'], {
      registry,
      sessionId: 'chat-1',
      emit,
      timeoutMs: 60_000,
    });
  const idempotency: ToolShell<Table> = (table) =>
    wrapToolsWithIdempotency(table, store, { scope: 'chat-1', tools: writeToolNames });
  return { approval, idempotency, answers, store };
}

describe('composeToolShells', () => {
  it('returns the base table itself for an empty list', () => {
    const { table } = createTable();
    expect(composeToolShells(table, [])).toBe(table);
  });

  it('lets the first shell see the call first', async () => {
    const log: string[] = [];
    const { table } = createTable();
    const composed = composeToolShells(table, [recordingShell('outer', log), recordingShell('inner', log)]);

    await call(composed.createTicket, { title: 'x' }, 'call-1');
    expect(log).toEqual(['outer', 'inner']);
  });

  it('with approval outside idempotency, caches nothing for a denied call and runs a later allowed one', async () => {
    const { table, createTicket } = createTable();
    const { approval, idempotency, answers, store } = hardening();
    const composed = composeToolShells(table, [approval, idempotency]);

    answers.push(false);
    expect(isToolDenial(await call(composed.createTicket, { title: 'x' }, 'call-1'))).toBe(true);
    expect(store.size).toBe(0);

    answers.push(true);
    await expect(call(composed.createTicket, { title: 'x' }, 'call-2')).resolves.toMatchObject({
      ticketId: 'TK-000001',
    });
    expect(createTicket).toHaveBeenCalledOnce();

    // And a repeat after approval is still answered from the cache, once approved again.
    answers.push(true);
    await expect(call(composed.createTicket, { title: 'x' }, 'call-3')).resolves.toMatchObject({
      ticketId: 'TK-000001',
    });
    expect(createTicket).toHaveBeenCalledOnce();
  });

  it('shows why the order matters: idempotency outside approval caches the denial and never runs the tool', async () => {
    const { table, createTicket } = createTable();
    const { approval, idempotency, answers, store } = hardening();
    const wrongOrder = composeToolShells(table, [idempotency, approval]);

    answers.push(false);
    const denial = await call(wrongOrder.createTicket, { title: 'x' }, 'call-1');
    expect(isToolDenial(denial)).toBe(true);
    expect(store.size).toBe(1); // the denial is now the cached "result"

    answers.push(true); // the user changes their mind…
    const later = await call(wrongOrder.createTicket, { title: 'x' }, 'call-2');
    expect(later).toBe(denial); // …but gets the cached denial back,
    expect(answers).toEqual([true]); // is never even asked,
    expect(createTicket).not.toHaveBeenCalled(); // and the ticket is never created.
  });

  it('keeps description and inputSchema as the same references through every shell', () => {
    const { table } = createTable();
    const { approval, idempotency } = hardening();
    const shells: [string, ToolShell<Table>][] = [
      ['approval', approval],
      ['idempotency', idempotency],
      ['composed', (base) => composeToolShells(base, [approval, idempotency])],
    ];
    for (const [name, shell] of shells) {
      const wrapped = shell(table);
      expect(wrapped.createTicket, name).not.toBe(table.createTicket);
      expect(wrapped.createTicket.description, name).toBe(table.createTicket.description);
      expect(wrapped.createTicket.inputSchema, name).toBe(table.createTicket.inputSchema);
    }
  });
});
