import { countToolCall, observeApprovalWait } from './metrics';
import { currentToolCall } from './telemetry-scope';

/**
 * Counts a call the audit log records (`toolgate_tool_calls_total`) and gives its
 * outcome to the call's span, so metrics, traces and the log never disagree on it.
 */
export function observeAuditedCall(row: { toolName: string; toolCallId: string; outcome: string }): void {
  countToolCall(row.toolName, row.outcome);
  const call = currentToolCall();
  if (call?.toolCallId === row.toolCallId) call.outcome = row.outcome;
}

/** A parked call that ended without running: counted, and its wait since the card observed. */
export function observeParkedDenial(row: {
  toolName: string;
  toolCallId: string;
  outcome: string;
  waitMs: number;
}): void {
  observeAuditedCall(row);
  observeApprovalWait(row.waitMs);
}
