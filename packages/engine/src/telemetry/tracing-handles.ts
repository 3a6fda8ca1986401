import type * as OpenTelemetryApi from '@opentelemetry/api';
import type { Telemetry } from 'ai';

/**
 * What the tracing code needs once a collector is configured: the OpenTelemetry API,
 * Toolgate's tracer and the AI SDK's OpenTelemetry integration. Set by `startTracing`
 * (loaded with a dynamic import only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set); while
 * it is unset, none of these packages is loaded and every tracing call returns at once.
 */
export type TracingHandles = {
  api: typeof OpenTelemetryApi;
  tracer: OpenTelemetryApi.Tracer;
  integration: Telemetry;
};

// On globalThis: the start-up hook that sets it and the routes that read it are bundled apart.
const globalForTracing = globalThis as typeof globalThis & { __toolgateTracing?: TracingHandles };

/** The handles, or undefined while tracing is off. */
export function tracingHandles(): TracingHandles | undefined {
  return globalForTracing.__toolgateTracing;
}

/** Installs the handles (`startTracing`), or removes them. */
export function setTracingHandles(handles: TracingHandles | undefined): void {
  globalForTracing.__toolgateTracing = handles;
}
