import { describe, expect, it } from 'vitest';
import { observeParkedDenial } from '@/lib/telemetry/observe-audited-call';
import { useInMemoryTracing } from '../support/in-memory-tracing';

describe('observeParkedDenial', () => {
  const tracing = useInMemoryTracing();

  it('gives a parked call that ended without running a tool.call span of its own, linked to the call that asked', () => {
    const asking = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    for (const outcome of ['timeout', 'superseded', 'closed'])
      observeParkedDenial({
        toolName: 'issueRefund',
        toolCallId: `call-${outcome}`,
        outcome,
        waitMs: 1234,
        traceParent: asking,
        tainted: true,
      });
    const spans = tracing.finishedSpans();
    expect(spans.map((span) => [span.name, span.attributes['toolgate.outcome']])).toEqual([
      ['tool.call', 'timeout'],
      ['tool.call', 'superseded'],
      ['tool.call', 'closed'],
    ]);
    expect(spans[0]?.attributes).toMatchObject({
      'gen_ai.tool.name': 'issueRefund',
      'gen_ai.tool.call.id': 'call-timeout',
      'toolgate.approval.wait_ms': 1234,
      'toolgate.executed': false,
      'toolgate.tainted': true,
    });
    expect(spans[0]?.links[0]?.context.spanId).toBe('b7ad6b7169203331');
  });
});
