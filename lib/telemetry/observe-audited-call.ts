import { currentToolCall, tracingHandles } from '@toolgate/engine/telemetry';
import { countToolCall, observeApprovalWait } from './metrics';
import { spanContextOf } from './trace-parent';

/**
 * Counts a call the audit log records (`toolgate_tool_calls_total`) and gives its
 * outcome to the call's span, so metrics, traces and the log never disagree on it.
 */
export function observeAuditedCall(row: { toolName: string; toolCallId: string; outcome: string }): void {
  countToolCall(row.toolName, row.outcome);
  const call = currentToolCall();
  if (call?.toolCallId === row.toolCallId) call.outcome = row.outcome;
}

/**
 * A parked call that ended without running (a person's "no", its deadline, a new message, a
 * deleted chat): counted, its wait since the card observed, and traced. The span that asked
 * ended when its turn parked, so the end gets a `tool.call` span of its own, linked to the
 * asking one: "proposed and stopped" is visible in traces, not confused with "never proposed".
 */
export function observeParkedDenial(row: {
  toolName: string;
  toolCallId: string;
  outcome: string;
  waitMs: number;
  /** The asking call's `traceparent`, when it was traced. */
  traceParent?: string;
  /** Whether an untrusted output supplied the call's values. */
  tainted?: boolean;
}): void {
  observeAuditedCall(row);
  observeApprovalWait(row.waitMs);
  const handles = tracingHandles();
  if (handles === undefined || currentToolCall()?.toolCallId === row.toolCallId) return;
  const linked = spanContextOf(row.traceParent);
  const span = handles.tracer.startSpan(
    'tool.call',
    {
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': row.toolName,
        'gen_ai.tool.call.id': row.toolCallId,
        'toolgate.outcome': row.outcome,
        'toolgate.approval.wait_ms': row.waitMs,
        'toolgate.executed': false,
        ...(row.tainted !== undefined && { 'toolgate.tainted': row.tainted }),
      },
      links: linked === undefined ? [] : [{ context: linked, attributes: { 'toolgate.link': 'asked by' } }],
    },
    handles.api.context.active(),
  );
  span.end();
}
