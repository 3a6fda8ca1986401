import { currentToolCall, tracingHandles } from '@toolgate/engine/telemetry';

/**
 * The W3C `traceparent` of the tool call running now (`00-<trace id>-<span id>-<flags>`),
 * kept on its approval row so a continuation from the database, maybe after a restart,
 * links back to the turn that asked. Undefined while tracing is off.
 */
export function currentTraceParent(): string | undefined {
  const context = currentToolCall()?.span?.spanContext();
  if (context === undefined) return undefined;
  return `00-${context.traceId}-${context.spanId}-${context.traceFlags.toString(16).padStart(2, '0')}`;
}

/** The span context a stored `traceparent` names, for a link; undefined for anything malformed. */
export function spanContextOf(traceParent: string | undefined) {
  const api = tracingHandles()?.api;
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(traceParent ?? '');
  if (api === undefined || match === null) return undefined;
  const spanContext = { traceId: match[1], spanId: match[2], traceFlags: Number.parseInt(match[3], 16) };
  return api.trace.isSpanContextValid(spanContext) ? spanContext : undefined;
}
