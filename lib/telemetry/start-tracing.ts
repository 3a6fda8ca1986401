import { setTracingHandles, tracingHandles } from '@toolgate/engine/telemetry';
import type { AppConfig } from '@/lib/config';

/**
 * Starts exporting traces over OTLP/HTTP to `OTEL_EXPORTER_OTLP_ENDPOINT`, protobuf or
 * JSON as `OTEL_EXPORTER_OTLP_PROTOCOL` says. The exporter reads the endpoint, headers
 * (`OTEL_EXPORTER_OTLP_HEADERS`, e.g. an API key) and timeouts from the environment as
 * the OpenTelemetry specification has it; spans leave in batches (`OTEL_BSP_*`). Every
 * package is imported here, dynamically, so a server without a collector loads none.
 */
export async function startTracing(config: AppConfig): Promise<void> {
  if (config.OTEL_EXPORTER_OTLP_ENDPOINT === undefined || tracingHandles() !== undefined) return;
  const [
    api,
    { NodeTracerProvider, BatchSpanProcessor },
    { resourceFromAttributes },
    { OpenTelemetry },
    { ScopeContextManager },
    { contentFreeTelemetry },
  ] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/resources'),
    import('@ai-sdk/otel'),
    import('./scope-context-manager'),
    import('./content-free-telemetry'),
  ]);
  const { OTLPTraceExporter } =
    config.OTEL_EXPORTER_OTLP_PROTOCOL === 'http/json'
      ? await import('@opentelemetry/exporter-trace-otlp-http')
      : await import('@opentelemetry/exporter-trace-otlp-proto');
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': process.env.OTEL_SERVICE_NAME?.trim() || 'toolgate' }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // The context manager and W3C propagation globally, but not the tracer provider: a global
  // one makes Next.js add its own request spans to every turn (twice the spans, about 8
  // points of throughput in the tracing bench). The context lives in the tool calls'
  // telemetry store, not in an AsyncLocalStorage of its own (see ScopeContextManager).
  provider.register({ contextManager: new ScopeContextManager(api.ROOT_CONTEXT) });
  api.trace.disable();
  const tracer = provider.getTracer('toolgate');
  setTracingHandles({ api, tracer, integration: contentFreeTelemetry(new OpenTelemetry({ tracer })) });
  // Spans still in the batch try to leave before the process does (Next.js exits on its
  // own signal handler, so this is best effort). Were nobody else listening, the signal is
  // raised again once flushed, so a listener here never keeps the process alive.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      void provider
        .shutdown()
        .catch(() => undefined)
        .finally(() => {
          if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
        });
    });
  }
}
