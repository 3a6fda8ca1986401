import type { Span, Context as TraceContext } from '@opentelemetry/api';
import { type AsyncScopeSlot, asyncScopeSlot } from '../shared/async-scope';

/** One tool call as the tracing shells observe it, from the outermost shell to the tool. */
export type ToolCallObservation = {
  toolName: string;
  toolCallId: string;
  /** Absent while tracing is off: the call is still observed for the metrics. */
  span?: Span;
  /** Adds an event to the span (the shells' work: rate limit, approval, idempotency, execution). */
  event: (name: string, attributes?: Record<string, string | number | boolean>) => void;
  /** When the call started waiting for a person, and when that ended. */
  approval?: { startedAt: number; endedAt?: number };
  /** The idempotency shell's key of the call, when it guards the tool. */
  idempotencyKey?: string;
  /** Another call with the same key was executing when this one reached the idempotency shell. */
  keyInFlight?: boolean;
  /** The tool itself ran for this call. */
  executed: boolean;
  /** The audit outcome, once the audit shell has recorded the call. */
  outcome?: string;
};

/** What a continuation knows about the call it carries out: it waited, parked, for this long. */
export type ParkedDecision = { toolCallId: string; waitMs: number };

/**
 * The telemetry of the tool call running in this async context, what a continuation knows
 * of it, and OpenTelemetry's active context (see `ScopeContextManager`).
 */
export type TelemetryScope = {
  call?: ToolCallObservation;
  parked?: ParkedDecision;
  traceContext?: TraceContext;
};

// A slot of the server's one async-context store (../shared/async-scope.ts), which every bundle shares.
const scope = asyncScopeSlot<TelemetryScope>('telemetry');

/** The store of the current tool call's telemetry. */
export function telemetryScope(): AsyncScopeSlot<TelemetryScope> {
  return scope;
}

/** The tool call running in this async context, if any. */
export function currentToolCall(): ToolCallObservation | undefined {
  return telemetryScope().getStore()?.call;
}
