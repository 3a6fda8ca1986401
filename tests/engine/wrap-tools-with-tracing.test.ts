import {
  createMemoryApprovalRegistry,
  createMemoryIdempotencyStore,
  writeExecutionOf,
} from '@toolgate/engine';
import type { EffectRecorder } from '@toolgate/engine/shells';
import { tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { NewAuditRow } from '@/lib/db/audit';
import { observeAuditedCall } from '@/lib/telemetry/observe-audited-call';
import { assembleTurnTools } from '@/lib/turn-table/assemble-turn-tools';
import type { ToolExecute } from '../../packages/engine/src/shells/wrap-execute';
import { setTracingHandles } from '../../packages/engine/src/telemetry/tracing-handles';
import { useInMemoryTracing } from '../support/in-memory-tracing';

const secretTitle = 'quetzal-umbrella secret title';

function createTable() {
  let release: () => void = () => undefined;
  let executions = 0;
  const table = {
    createTicket: tool({
      description: 'Create a support ticket.',
      inputSchema: z.object({ title: z.string() }),
      execute: async ({ title }: { title: string }) => {
        executions += 1;
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return { ticketId: `TK-00000${executions}`, title };
      },
    }),
  };
  return { table, release: () => release(), executions: () => executions };
}

/** Calls a tool's execute as the AI SDK would. */
function call(target: { execute?: unknown }, input: unknown, toolCallId: string): Promise<unknown> {
  if (typeof target.execute !== 'function') throw new Error('tool has no execute');
  return (target.execute as ToolExecute)(input, {
    toolCallId,
    messages: [],
    context: {},
  }) as Promise<unknown>;
}

describe('createToolCallTracing', () => {
  const tracing = useInMemoryTracing();

  function assemble(table: ReturnType<typeof createTable>['table'], rows: NewAuditRow[]) {
    return assembleTurnTools({
      baseTools: table,
      worker: 'refund',
      chatId: 'chat-1',
      ownerId: 'user-1',
      store: createMemoryIdempotencyStore(),
      // As the app's audit writer does: each row's outcome reaches the call's span.
      audit: (row) => {
        observeAuditedCall(row);
        rows.push(row);
      },
    });
  }

  const spanOf = (toolCallId: string) =>
    tracing.finishedSpans().find((span) => span.attributes['gen_ai.tool.call.id'] === toolCallId);

  it('tells an execution, a call sharing it while it runs, and a later replay apart', async () => {
    const { table, release, executions } = createTable();
    const rows: NewAuditRow[] = [];
    const tools = assemble(table, rows);
    const first = call(tools.createTicket, { title: secretTitle }, 'call-1');
    await new Promise((resolve) => setTimeout(resolve, 10));
    const second = call(tools.createTicket, { title: secretTitle }, 'call-2');
    release();
    await Promise.all([first, second]);
    await call(tools.createTicket, { title: secretTitle }, 'call-3');
    expect(executions()).toBe(1);

    expect(spanOf('call-1')?.attributes).toMatchObject({
      'gen_ai.tool.name': 'createTicket',
      'toolgate.outcome': 'executed',
      'toolgate.idempotency': 'executed',
    });
    expect(spanOf('call-2')?.attributes).toMatchObject({
      'toolgate.outcome': 'replayed',
      'toolgate.idempotency': 'shared',
    });
    expect(spanOf('call-3')?.attributes).toMatchObject({
      'toolgate.outcome': 'replayed',
      'toolgate.idempotency': 'replayed',
    });
    expect(rows.map((row) => row.outcome)).toEqual(['executed', 'replayed', 'replayed']);
    expect(
      JSON.stringify(tracing.finishedSpans().map((span) => [span.attributes, span.events])),
    ).not.toContain('quetzal');
  });

  it('calls a repeat answered by its effect record a replay, though the tool was reached', async () => {
    // A recorder that already holds this call's result: the store lost it, the record did not.
    const recorded = { ticketId: 'TK-000001', title: secretTitle };
    const effects: EffectRecorder = { commit: async () => ({ output: recorded as never, replayed: true }) };
    const table = {
      createTicket: tool({
        description: 'Create a support ticket.',
        inputSchema: z.object({ title: z.string() }),
        execute: async (_input, options) => {
          const commit = writeExecutionOf(options)?.commit;
          if (commit === undefined) throw new Error('no commit');
          return commit(async () => ({ ticketId: 'TK-000002', title: 'never written' }));
        },
      }),
    };
    const rows: NewAuditRow[] = [];
    const tools = assembleTurnTools({
      baseTools: table,
      worker: 'refund',
      chatId: 'chat-1',
      ownerId: 'user-1',
      store: createMemoryIdempotencyStore(),
      effects,
      audit: (row) => {
        observeAuditedCall(row);
        rows.push(row);
      },
    });
    expect(await call(tools.createTicket, { title: secretTitle }, 'call-1')).toEqual(recorded);
    expect(rows.map((row) => row.outcome)).toEqual(['replayed']);
    expect(spanOf('call-1')?.attributes).toMatchObject({
      'toolgate.outcome': 'replayed',
      'toolgate.idempotency': 'replayed',
    });
  });

  it('measures how long a call waited for a person', async () => {
    const { table, release } = createTable();
    const registry = createMemoryApprovalRegistry();
    const tools = assembleTurnTools({
      baseTools: table,
      worker: 'refund',
      chatId: 'chat-1',
      ownerId: 'user-1',
      store: createMemoryIdempotencyStore(),
      approval: {
        confirmTools: new Set(['createTicket']),
        registry,
        emit: (event) => {
          setTimeout(() => registry.resolve(event.approvalId, 'chat-1', true, 'user-1'), 150);
        },
        timeoutMs: 10_000,
      },
    });
    const pending = call(tools.createTicket, { title: 'x' }, 'call-wait');
    setTimeout(release, 200);
    await pending;
    const wait = spanOf('call-wait')?.attributes['toolgate.approval.wait_ms'] as number;
    // Generous bounds: the decision came after 150 ms of real time on a busy machine.
    expect(wait).toBeGreaterThanOrEqual(140);
    expect(wait).toBeLessThan(5_000);
    expect(spanOf('call-wait')?.events.map((event) => event.name)).toEqual([
      'approval.requested',
      'approval.approved',
      'execution.start',
      'execution.end',
      'idempotency.executed',
    ]);
  });

  it('passes a streamed output through as a stream, and ends the span after its last value', async () => {
    const tools = assembleTurnTools({
      baseTools: {
        progress: tool({
          description: 'Reports progress.',
          inputSchema: z.object({}),
          execute: async function* () {
            yield { done: 1 };
            yield { done: 2 };
          },
        }),
      },
      worker: 'assistant',
      chatId: 'chat-1',
      ownerId: 'user-1',
      store: createMemoryIdempotencyStore(),
    });
    const result = (tools.progress.execute as ToolExecute)(
      {},
      { toolCallId: 'call-stream', messages: [], context: {} },
    );
    const outputs: unknown[] = [];
    for await (const output of result as AsyncIterable<unknown>) outputs.push(output);
    expect(outputs).toEqual([{ done: 1 }, { done: 2 }]);
    expect(spanOf('call-stream')?.events.map((event) => event.name)).toEqual([
      'execution.start',
      'execution.end',
    ]);
  });

  it('makes no span while tracing is off, and the call still runs', async () => {
    setTracingHandles(undefined);
    const { table, release } = createTable();
    const tools = assemble(table, []);
    const pending = call(tools.createTicket, { title: 'y' }, 'call-off');
    release();
    await expect(pending).resolves.toMatchObject({ ticketId: 'TK-000001' });
    expect(tracing.finishedSpans()).toEqual([]);
  });
});
