import type { ToolExecutionOptions, ToolSet } from 'ai';
import { idempotencyKey } from '../shared/idempotency-key';
import { currentToolCall, type ToolCallObservation, telemetryScope } from '../telemetry/telemetry-scope';
import { tracingHandles } from '../telemetry/tracing-handles';
import type { ToolShell } from './compose-tool-shells';
import { isAsyncIterable, type ToolExecute, wrapExecute } from './wrap-execute';
import { isToolDenial } from './wrap-tools-with-approval';

/** Options of {@link createToolCallTracing}. */
export type ToolCallTracingOptions = {
  /** The idempotency shell's scope (the chat id), to tell a shared execution from a replay. */
  scope: string;
  /** Tools the approval shell holds for a person. */
  confirmTools: Iterable<string>;
  /** Tools the idempotency shell guards. */
  writeTools: Iterable<string>;
  /** Whether a rate-limit shell sits outside `beforeApproval`. */
  rateLimited: boolean;
  /** Told how long each call waited for a person (a metrics histogram, say); with tracing off too. */
  onApprovalWait?: (milliseconds: number) => void;
};

/**
 * How long a call may stay open after its turn's signal fired (Stop, parking) before its
 * span ends as parked: a parked call never returns, the continuation carries it out.
 */
const parkedAfterMs = 2_000;

// Idempotency keys executing in this process now, with how many calls run each (normally one).
const globalForKeys = globalThis as typeof globalThis & { __toolgateExecutingKeys?: Map<string, number> };
const executingKeys = () => {
  globalForKeys.__toolgateExecutingKeys ??= new Map();
  return globalForKeys.__toolgateExecutingKeys;
};

/**
 * Observes each tool call for traces and metrics: `call` is the outermost shell and opens
 * one `tool.call` span per call (a child of the AI SDK's tool span); the probes sit
 * between the other shells and add their work to it as events: `beforeApproval` just
 * inside the rate limit, `beforeIdempotency` just outside the idempotency shell,
 * `beforeTool` innermost. The span carries the tool's name and call id, the audit
 * outcome, the approval wait and `executed|replayed|shared`, never an input or output
 * value. With tracing off no span is made; the approval wait still reaches the metrics.
 */
export function createToolCallTracing({
  scope,
  confirmTools,
  writeTools,
  rateLimited,
  onApprovalWait,
}: ToolCallTracingOptions): Record<
  'call' | 'beforeApproval' | 'beforeIdempotency' | 'beforeTool',
  ToolShell
> {
  const probe =
    (
      names: (table: ToolSet) => Iterable<string>,
      around: (call: ToolCallObservation, input: unknown, run: () => unknown) => unknown,
    ): ToolShell =>
    (table) =>
      wrapExecute(table, names(table), (execute) => (input, options) => {
        const call = currentToolCall();
        if (call === undefined || call.toolCallId !== options.toolCallId) return execute(input, options);
        return around(call, input, () => execute(input, options));
      });
  const everyTool = (table: ToolSet) => Object.keys(table);
  const confirmToolNames = new Set(confirmTools);
  return {
    call: (table) =>
      wrapExecute(table, everyTool(table), (execute, toolName) =>
        traceCall(execute, toolName, onApprovalWait),
      ),
    beforeApproval: probe(everyTool, (call, _input, run) => {
      if (rateLimited) call.event('rate_limit.allowed');
      const confirm = confirmToolNames.has(call.toolName);
      // A continuation's call has its wait already: the decision was taken while it was parked.
      if (confirm && call.approval === undefined) {
        call.approval = { startedAt: Date.now() };
        call.event('approval.requested');
      }
      return afterOutput(run, (output) => {
        // `call.approval` is also set for a call that waited because of its taint (see assembleTurnTools).
        if ((confirm || call.approval !== undefined) && isToolDenial(output)) {
          endApproval(call);
          call.event('approval.denied', { 'toolgate.denial.reason': output.reason });
        }
      });
    }),
    beforeIdempotency: probe(
      () => writeTools,
      (call, input, run) => {
        endApproval(call, 'approval.approved');
        const key = idempotencyKey(scope, call.toolName, input);
        call.idempotencyKey = key;
        call.keyInFlight = executingKeys().has(key);
        return afterOutput(run, () => call.event(`idempotency.${idempotencyOf(call)}`));
      },
    ),
    beforeTool: probe(everyTool, (call, _input, run) => {
      endApproval(call, 'approval.approved');
      call.executed = true;
      const key = call.idempotencyKey;
      if (key !== undefined) executingKeys().set(key, (executingKeys().get(key) ?? 0) + 1);
      call.event('execution.start');
      const settle = (ok: boolean) => {
        call.event('execution.end', { 'toolgate.execution.ok': ok });
        if (key === undefined) return;
        const running = (executingKeys().get(key) ?? 1) - 1;
        if (running > 0) executingKeys().set(key, running);
        else executingKeys().delete(key);
      };
      return afterOutput(
        run,
        () => settle(true),
        () => settle(false),
      );
    }),
  };
}

/**
 * Runs `run` and reports its output (a streamed one after its last value) or its error,
 * returning what it returned: a promise stays a promise, a stream stays a stream.
 */
function afterOutput(
  run: () => unknown,
  onOutput: (output: unknown) => void,
  onError: (error: unknown) => void = () => undefined,
): unknown {
  let result: unknown;
  try {
    result = run();
  } catch (error) {
    onError(error);
    throw error;
  }
  if (isAsyncIterable(result)) return reportStream(result, onOutput, onError);
  return Promise.resolve(result).then(
    (output) => {
      onOutput(output);
      return output;
    },
    (error: unknown) => {
      onError(error);
      throw error;
    },
  );
}

async function* reportStream(
  stream: AsyncIterable<unknown>,
  onOutput: (output: unknown) => void,
  onError: (error: unknown) => void,
): AsyncGenerator<unknown> {
  let last: unknown;
  try {
    for await (const output of stream) {
      last = output;
      yield output;
    }
  } catch (error) {
    onError(error);
    throw error;
  }
  onOutput(last);
}

/** Marks the end of the call's wait for a person (once). */
function endApproval(call: ToolCallObservation, event?: string): void {
  if (call.approval === undefined || call.approval.endedAt !== undefined) return;
  call.approval.endedAt = Date.now();
  if (event !== undefined) call.event(event);
}

/** How the idempotency shell answered: the tool ran, an earlier result, or a concurrent run's. */
function idempotencyOf(call: ToolCallObservation): 'executed' | 'replayed' | 'shared' {
  // A tool that commits through its effect record reaches `execute` even when the record answers.
  if (call.executed) return call.outcome === 'replayed' ? 'replayed' : 'executed';
  return call.keyInFlight ? 'shared' : 'replayed';
}

/** The outermost wrapper: one observation (and span) per call, ended once the audit shell has recorded it. */
function traceCall(
  execute: ToolExecute,
  toolName: string,
  onApprovalWait: ((milliseconds: number) => void) | undefined,
): ToolExecute {
  return (input, options: ToolExecutionOptions<unknown>) => {
    const handles = tracingHandles();
    const store = telemetryScope().getStore();
    const startedAt = Date.now();
    const span = handles?.tracer.startSpan('tool.call', {
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': toolName,
        'gen_ai.tool.call.id': options.toolCallId,
      },
    });
    const call: ToolCallObservation = {
      toolName,
      toolCallId: options.toolCallId,
      span,
      executed: false,
      event: (name, attributes) => span?.addEvent(name, attributes),
    };
    // A continuation carries out a call that waited, parked, since its card was shown.
    const parked = store?.parked?.toolCallId === options.toolCallId ? store.parked : undefined;
    if (parked !== undefined) {
      call.approval = { startedAt: startedAt - parked.waitMs, endedAt: startedAt };
      call.event('approval.approved', { 'toolgate.approval.parked': true });
    }
    let ended = false;
    const end = ({ error, parkedTurn = false }: { error?: unknown; parkedTurn?: boolean } = {}) => {
      if (ended) return;
      ended = true;
      finishCall(call, { error, parkedTurn, onApprovalWait });
    };
    // The store as it is inside the span's context (which may live in the same store).
    const run = () =>
      telemetryScope().run({ ...telemetryScope().getStore(), call }, () => execute(input, options));
    let result: unknown;
    try {
      result =
        span && handles
          ? handles.api.context.with(handles.api.trace.setSpan(handles.api.context.active(), span), run)
          : run();
    } catch (error) {
      end({ error });
      throw error;
    }
    if (isAsyncIterable(result)) return traceStream(result, end);
    const signal = options.abortSignal;
    const onAbort = () => setTimeout(() => end({ parkedTurn: true }), parkedAfterMs).unref();
    signal?.addEventListener('abort', onAbort, { once: true });
    return Promise.resolve(result)
      .then(
        (output) => {
          end();
          return output;
        },
        (error: unknown) => {
          end({ error });
          throw error;
        },
      )
      .finally(() => signal?.removeEventListener('abort', onAbort));
  };
}

/** The longest tool name a rejected call's span carries: the model chose it, not the table. */
const maxRejectedNameLength = 64;

/**
 * For `streamText`'s `onChunk`: a call the AI SDK refused before any shell saw it (a tool the
 * table does not hold, an input the tool's schema rejects) leaves its `tool.call` span too,
 * ended at once with outcome `error` and an error status naming the error's class — never
 * its message, which quotes the input. Every other chunk passes unseen.
 */
export function traceRejectedToolCall({
  chunk,
}: {
  chunk: { type: string; toolName?: string; toolCallId?: string; invalid?: boolean; error?: unknown };
}): void {
  if (chunk.type !== 'tool-call' || chunk.invalid !== true) return;
  const span = tracingHandles()?.tracer.startSpan('tool.call', {
    attributes: {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': (chunk.toolName ?? '').slice(0, maxRejectedNameLength),
      'gen_ai.tool.call.id': chunk.toolCallId ?? '',
      'toolgate.outcome': 'error',
    },
  });
  if (span === undefined) return;
  const errorType = chunk.error instanceof Error ? chunk.error.name : 'error';
  span.setAttribute('error.type', errorType);
  span.setStatus({ code: 2, message: errorType });
  span.end();
}

/** Passes a streamed output through and ends the call after its last value. */
async function* traceStream(
  stream: AsyncIterable<unknown>,
  end: (options?: { error?: unknown }) => void,
): AsyncGenerator<unknown> {
  try {
    yield* stream;
    end();
  } catch (error) {
    end({ error });
    throw error;
  } finally {
    end();
  }
}

/** Writes what the call's observation learned onto its span, and the approval wait into the metrics. */
function finishCall(
  call: ToolCallObservation,
  {
    error,
    parkedTurn,
    onApprovalWait,
  }: { error?: unknown; parkedTurn: boolean; onApprovalWait: ((milliseconds: number) => void) | undefined },
): void {
  const { span, approval, outcome } = call;
  if (parkedTurn) {
    // The turn parked (or was taken over): the continuation records this call's outcome and wait.
    span?.setAttribute('toolgate.parked', true);
    call.event('turn.parked');
    span?.end();
    return;
  }
  if (outcome !== undefined) span?.setAttribute('toolgate.outcome', outcome);
  if (call.executed || call.idempotencyKey !== undefined)
    span?.setAttribute('toolgate.idempotency', idempotencyOf(call));
  if (approval !== undefined && outcome !== 'approved_by_rule' && outcome !== 'rate_limited') {
    const waitMs = Math.max(0, (approval.endedAt ?? Date.now()) - approval.startedAt);
    span?.setAttribute('toolgate.approval.wait_ms', waitMs);
    onApprovalWait?.(waitMs);
  }
  if (outcome === 'rate_limited') call.event('rate_limit.refused');
  if (span !== undefined && error !== undefined) {
    // The error's class only: a message may quote the input.
    span.setStatus({ code: 2, message: error instanceof Error ? error.name : 'error' });
  }
  span?.end();
}
