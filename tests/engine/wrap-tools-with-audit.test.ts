import {
  type ApprovalRegistry,
  auditOutcomeOfDenial,
  composeToolShells,
  createMemoryApprovalRegistry,
  createMemoryIdempotencyStore,
  denialReasons,
  stableStringify,
  type ToolShell,
  wrapToolsWithApproval,
  wrapToolsWithAudit,
  wrapToolsWithIdempotency,
  wrapToolsWithRateLimit,
} from '@toolgate/engine';
import { hashToolArguments } from '@toolgate/engine/shells';
import { tool } from 'ai';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { NewAuditRow } from '@/lib/db/audit';
import { writeToolNames } from '@/lib/tools/tool-catalog';
import { call } from '../support/call-tool';

function createTable() {
  let ticketCount = 0;
  const createTicket = vi.fn(async ({ title }: { title: string }) => {
    if (title === 'explode') throw new Error('database is locked');
    ticketCount += 1;
    return { ticketId: `TK-${String(ticketCount).padStart(6, '0')}`, title, status: 'open' as const };
  });
  const table = {
    createTicket: tool({
      description: 'Create a support ticket.',
      inputSchema: z.object({ title: z.string().min(1).max(200), orderId: z.string().optional() }),
      execute: createTicket,
    }),
  };
  return { table, createTicket };
}

/** Calls a tool's execute as the AI SDK would (AI SDK 7 requires `context`). */

/** A clock that advances 5 ms each time it is read. */
function steppingClock(start = Date.parse('2026-11-30T10:00:00.000Z')) {
  let time = start - 5;
  return () => {
    time += 5;
    return time;
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('wrapToolsWithAudit', () => {
  it('records one row per call with chat, worker, tool, hashed arguments, outcome, duration and start time', async () => {
    const { table } = createTable();
    const logged = vi.spyOn(console, 'error');
    const rows: NewAuditRow[] = [];
    const audited = wrapToolsWithAudit(table, {
      record: (row) => rows.push(row),
      chatId: 'chat-1',
      worker: 'refund',
      now: steppingClock(),
    });

    const output = await call(audited.createTicket, { title: 'Broken lid', orderId: 'A1001' }, 'call-1');

    expect(output).toMatchObject({ ticketId: 'TK-000001' });
    expect(rows).toEqual([
      {
        chatId: 'chat-1',
        worker: 'refund',
        toolName: 'createTicket',
        toolCallId: 'call-1',
        argsHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        outcome: 'executed',
        durationMs: 5,
        createdAt: '2026-11-30T10:00:00.000Z',
      },
    ]);
    expect(logged).not.toHaveBeenCalled();
  });

  it('stores a sha256 of the canonical arguments and never the arguments themselves', async () => {
    const { table } = createTable();
    const rows: NewAuditRow[] = [];
    const audited = wrapToolsWithAudit(table, {
      record: (row) => rows.push(row),
      chatId: 'c',
      worker: 'refund',
    });

    await call(audited.createTicket, { title: 'secret title', orderId: 'A1001' }, 'call-1');
    await call(audited.createTicket, { orderId: 'A1001', title: 'secret title' }, 'call-2');

    expect(rows[0].argsHash).toBe(rows[1].argsHash);
    expect(hashToolArguments({ title: 'a' })).not.toBe(hashToolArguments({ title: 'b' }));
    expect(JSON.stringify(rows)).not.toContain('secret title');
    expect(rows[0].argsHash).not.toBe(stableStringify({ orderId: 'A1001', title: 'secret title' }));
  });

  it('keeps the call’s summary from `summarize`, of the input the person edited when they did', async () => {
    const { table } = createTable();
    const rows: NewAuditRow[] = [];
    const summarize = (toolName: string, input: unknown) =>
      toolName === 'createTicket'
        ? {
            en: `Create “${(input as { title: string }).title}”`,
            zh: `创建「${(input as { title: string }).title}」`,
          }
        : undefined;
    // A registry that allows every call at once, with the person's edit (as the durable one does from its row).
    const registry = {
      confirm: async () => ({ approved: true, input: { title: 'edited' } }),
      resolve: () => false,
      extend: () => false,
      closeSession: () => 0,
    } as unknown as ApprovalRegistry;
    const tools = composeToolShells(table, [
      (inner) =>
        wrapToolsWithAudit(inner, {
          record: (row) => rows.push(row),
          chatId: 'c',
          worker: 'refund',
          summarize,
        }),
      (inner) =>
        wrapToolsWithApproval(inner, ['createTicket'], {
          registry,
          sessionId: 'c',
          timeoutMs: 1_000,
          emit: () => undefined,
        }),
    ]);

    await call(tools.createTicket, { title: 'proposed' }, 'call-1');

    expect(rows).toEqual([
      expect.objectContaining({ summary: { en: 'Create “edited”', zh: '创建「edited」' } }),
    ]);
  });

  it('leaves the summary out for a tool `summarize` knows nothing about', async () => {
    const { table } = createTable();
    const rows: NewAuditRow[] = [];
    const audited = wrapToolsWithAudit(table, {
      record: (row) => rows.push(row),
      chatId: 'c',
      worker: 'refund',
      summarize: () => undefined,
    });
    await call(audited.createTicket, { title: 'x' }, 'call-1');
    expect(rows[0]).not.toHaveProperty('summary');
  });

  it('shows control, zero-width and bidirectional characters of the input in the summary as code points', async () => {
    const { table } = createTable();
    const rows: NewAuditRow[] = [];
    const audited = wrapToolsWithAudit(table, {
      record: (row) => rows.push(row),
      chatId: 'c',
      worker: 'refund',
      summarize: (_toolName, input) => {
        const { title } = input as { title: string };
        return { en: `Create “${title}”`, zh: `创建「${title}」` };
      },
    });
    // Reads "Refund 1 €" (the override reverses what follows it) for a title that says "€ 0001".
    const title = 'Refund \u202e0001 €\u202c\u200b\u0007\u0085\ufeff\u2066x\u2069\tend\nline';
    await call(audited.createTicket, { title }, 'call-1');
    const shown = 'Refund ⟨U+202E⟩0001 €⟨U+202C⟩⟨U+200B⟩⟨U+0007⟩⟨U+0085⟩⟨U+FEFF⟩⟨U+2066⟩x⟨U+2069⟩\tend\nline';
    expect(rows[0].summary).toEqual({ en: `Create “${shown}”`, zh: `创建「${shown}」` });
  });

  it('still writes the row, without a summary, when `summarize` throws', async () => {
    const { table } = createTable();
    const rows: NewAuditRow[] = [];
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const audited = wrapToolsWithAudit(table, {
      record: (row) => rows.push(row),
      chatId: 'c',
      worker: 'refund',
      summarize: () => {
        throw new Error('no words for this');
      },
    });
    await call(audited.createTicket, { title: 'x' }, 'call-1');
    expect(rows).toEqual([expect.objectContaining({ outcome: 'executed' })]);
    expect(rows[0]).not.toHaveProperty('summary');
  });

  it('records replayed when the idempotency shell reports the call id as a replay', async () => {
    const { table, createTicket } = createTable();
    const rows: NewAuditRow[] = [];
    const replayedCallIds = new Set<string>();
    const tools = composeToolShells(table, [
      (inner) =>
        wrapToolsWithAudit(inner, {
          record: (row) => rows.push(row),
          chatId: 'c',
          worker: 'refund',
          replayedCallIds,
        }),
      (inner) =>
        wrapToolsWithIdempotency(inner, createMemoryIdempotencyStore(), {
          scope: 'c',
          tools: writeToolNames,
          onReplay: ({ toolCallId }) => replayedCallIds.add(toolCallId),
        }),
    ]);

    const first = await call(tools.createTicket, { title: 'Broken lid' }, 'call-1');
    const second = await call(tools.createTicket, { title: 'Broken lid' }, 'call-2');

    expect(second).toEqual(first);
    expect(createTicket).toHaveBeenCalledTimes(1);
    expect(rows.map((row) => [row.toolCallId, row.outcome])).toEqual([
      ['call-1', 'executed'],
      ['call-2', 'replayed'],
    ]);
    expect(replayedCallIds.size).toBe(0);
  });

  it.each(['denied', 'timeout', 'aborted', 'closed'] as const)(
    'records a denial with reason %s as that outcome and returns the denial',
    async (reason) => {
      const rows: NewAuditRow[] = [];
      const denial = { denied: true, reason, message: 'Do not retry this call.' };
      const table = {
        createTicket: tool({
          description: 'Create a support ticket.',
          inputSchema: z.object({ title: z.string() }),
          execute: async () => denial,
        }),
      };
      const audited = wrapToolsWithAudit(table, {
        record: (row) => rows.push(row),
        chatId: 'c',
        worker: 'refund',
      });

      expect(await call(audited.createTicket, { title: 'x' }, 'call-1')).toBe(denial);
      expect(rows.map((row) => row.outcome)).toEqual([reason]);
    },
  );

  it.each(denialReasons)(
    'names the denial reason %s in the row it records for a refused call',
    async (reason) => {
      const rows: NewAuditRow[] = [];
      const denial = { denied: true, reason, message: 'Do not retry this call.' };
      const table = {
        createTicket: tool({
          description: 'Create a support ticket.',
          inputSchema: z.object({ title: z.string() }),
          execute: async () => denial,
        }),
      };
      const audited = wrapToolsWithAudit(table, {
        record: (row) => rows.push(row),
        chatId: 'c',
        worker: 'refund',
      });

      await call(audited.createTicket, { title: 'x' }, 'call-1');
      expect(rows.map((row) => [row.outcome, row.detail?.reason])).toEqual([
        [auditOutcomeOfDenial[reason], reason],
      ]);
    },
  );

  it('records a real approval timeout from the approval shell as timeout, and nothing runs', async () => {
    const { table, createTicket } = createTable();
    const rows: NewAuditRow[] = [];
    const tools = composeToolShells(table, [
      (inner) =>
        wrapToolsWithAudit(inner, { record: (row) => rows.push(row), chatId: 'c', worker: 'refund' }),
      (inner) =>
        wrapToolsWithApproval(inner, ['createTicket'], {
          registry: createMemoryApprovalRegistry(),
          sessionId: 'c',
          emit: () => {},
          timeoutMs: 10,
        }),
    ]);

    expect(await call(tools.createTicket, { title: 'x' }, 'call-1')).toMatchObject({
      denied: true,
      reason: 'timeout',
    });
    expect(rows.map((row) => row.outcome)).toEqual(['timeout']);
    expect(createTicket).not.toHaveBeenCalled();
  });

  it('records rate_limited when the rate-limit shell refuses the call', async () => {
    const { table, createTicket } = createTable();
    const rows: NewAuditRow[] = [];
    const tools = composeToolShells(table, [
      (inner) =>
        wrapToolsWithAudit(inner, { record: (row) => rows.push(row), chatId: 'c', worker: 'refund' }),
      (inner) =>
        wrapToolsWithRateLimit(inner, {
          limiter: new RateLimiterMemory({ points: 1, duration: 60 }),
          key: 'c',
        }),
    ]);

    await call(tools.createTicket, { title: 'one' }, 'call-1');
    expect(await call(tools.createTicket, { title: 'two' }, 'call-2')).toMatchObject({ rateLimited: true });
    expect(rows.map((row) => row.outcome)).toEqual(['executed', 'rate_limited']);
    expect(createTicket).toHaveBeenCalledTimes(1);
  });

  it('records error and rethrows when the tool throws; nothing is cached and the retry executes', async () => {
    const { table } = createTable();
    let fail = true;
    const flaky = {
      createTicket: tool({
        description: table.createTicket.description,
        inputSchema: table.createTicket.inputSchema,
        execute: vi.fn(async ({ title }: { title: string }) => {
          if (fail) throw new Error('database is locked');
          return { ticketId: 'TK-000001', title, status: 'open' as const };
        }),
      }),
    };
    const rows: NewAuditRow[] = [];
    const replayedCallIds = new Set<string>();
    const store = createMemoryIdempotencyStore();
    const shells: ToolShell<typeof flaky>[] = [
      (inner) =>
        wrapToolsWithAudit(inner, {
          record: (row) => rows.push(row),
          chatId: 'c',
          worker: 'refund',
          replayedCallIds,
        }),
      (inner) =>
        wrapToolsWithApproval(inner, ['createTicket'], {
          registry: {
            ...createMemoryApprovalRegistry(),
            confirm: async () => ({ approved: true }),
          },
          sessionId: 'c',
          emit: () => {},
          timeoutMs: 1_000,
        }),
      (inner) =>
        wrapToolsWithIdempotency(inner, store, {
          scope: 'c',
          tools: writeToolNames,
          onReplay: ({ toolCallId }) => replayedCallIds.add(toolCallId),
        }),
    ];
    const tools = composeToolShells(flaky, shells);

    await expect(call(tools.createTicket, { title: 'x' }, 'call-1')).rejects.toThrow('database is locked');
    fail = false;
    expect(await call(tools.createTicket, { title: 'x' }, 'call-2')).toMatchObject({ ticketId: 'TK-000001' });

    expect(rows.map((row) => [row.toolCallId, row.outcome])).toEqual([
      ['call-1', 'error'],
      ['call-2', 'executed'],
    ]);
    expect(flaky.createTicket.execute).toHaveBeenCalledTimes(2);
  });

  it('records aborted when the tool throws after the call was aborted', async () => {
    const rows: NewAuditRow[] = [];
    const controller = new AbortController();
    const table = {
      slow: tool({
        description: 'Waits for the signal.',
        inputSchema: z.object({}),
        execute: async (_input, { abortSignal }) => {
          controller.abort();
          abortSignal?.throwIfAborted();
          return 'never';
        },
      }),
    };
    const audited = wrapToolsWithAudit(table, {
      record: (row) => rows.push(row),
      chatId: 'c',
      worker: 'assistant',
    });

    await expect(call(audited.slow, {}, 'call-1', controller.signal)).rejects.toThrow();
    expect(rows.map((row) => row.outcome)).toEqual(['aborted']);
  });

  it('still returns the result when recording fails, and logs the failure', async () => {
    const { table } = createTable();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const audited = wrapToolsWithAudit(table, {
      record: () => {
        throw new Error('disk full');
      },
      chatId: 'c',
      worker: 'refund',
    });

    expect(await call(audited.createTicket, { title: 'x' }, 'call-1')).toMatchObject({
      ticketId: 'TK-000001',
    });
    expect(logged).toHaveBeenCalledWith(expect.stringContaining('audit'), expect.any(Error));
  });

  it('logs a rejected asynchronous record instead of leaving it unhandled', async () => {
    const { table } = createTable();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const audited = wrapToolsWithAudit(table, {
      record: async () => {
        throw new Error('connection reset');
      },
      chatId: 'c',
      worker: 'refund',
    });

    expect(await call(audited.createTicket, { title: 'x' }, 'call-1')).toMatchObject({
      ticketId: 'TK-000001',
    });
    await vi.waitFor(() => expect(logged).toHaveBeenCalled());
  });

  it('passes a streamed output through and records once after its last value', async () => {
    const rows: NewAuditRow[] = [];
    const table = {
      progress: tool({
        description: 'Reports progress.',
        inputSchema: z.object({}),
        execute: async function* () {
          yield { percent: 50 };
          yield { percent: 100 };
        },
      }),
    };
    const audited = wrapToolsWithAudit(table, {
      record: (row) => rows.push(row),
      chatId: 'c',
      worker: 'assistant',
    });

    const outputs: unknown[] = [];
    for await (const output of call(audited.progress, {}, 'call-1') as AsyncIterable<unknown>) {
      outputs.push(output);
      expect(rows).toEqual([]);
    }
    expect(outputs).toEqual([{ percent: 50 }, { percent: 100 }]);
    expect(rows.map((row) => row.outcome)).toEqual(['executed']);
  });

  it('passes description and inputSchema through untouched', () => {
    const { table } = createTable();
    const audited = wrapToolsWithAudit(table, { record: () => {}, chatId: 'c', worker: 'refund' });
    expect(audited.createTicket.description).toBe(table.createTicket.description);
    expect(audited.createTicket.inputSchema).toBe(table.createTicket.inputSchema);
    expect(audited.createTicket.execute).not.toBe(table.createTicket.execute);
  });
});
