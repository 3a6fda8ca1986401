/* The async context a tool call's telemetry lives in, and the OpenTelemetry handles the tracing shell uses once tracing is on. */
export { type AsyncScopeSlot, asyncScopeSlot } from './shared/async-scope';
export { traceRejectedToolCall } from './shells/wrap-tools-with-tracing';
export {
  currentToolCall,
  type ParkedDecision,
  type TelemetryScope,
  type ToolCallObservation,
  telemetryScope,
} from './telemetry/telemetry-scope';
export { setTracingHandles, type TracingHandles, tracingHandles } from './telemetry/tracing-handles';
