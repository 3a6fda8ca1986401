import * as api from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach } from 'vitest';
import { setTracingHandles } from '../../packages/engine/src/telemetry/tracing-handles';

/**
 * Points the app's tracing at an in-memory exporter around each test of the calling suite (a
 * fresh one per test); `finishedSpans()` reads what the test's code ended.
 */
export function useInMemoryTracing(): { finishedSpans: () => ReadableSpan[] } {
  let exporter: InMemorySpanExporter | undefined;
  let provider: BasicTracerProvider | undefined;
  beforeEach(() => {
    exporter = new InMemorySpanExporter();
    provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    setTracingHandles({ api, tracer: provider.getTracer('test'), integration: {} });
  });
  afterEach(async () => {
    setTracingHandles(undefined);
    await provider?.shutdown();
  });
  return { finishedSpans: () => exporter?.getFinishedSpans() ?? [] };
}
