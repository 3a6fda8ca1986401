import { OpenTelemetry } from '@ai-sdk/otel';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import * as api from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { createMemoryIdempotencyStore } from '@toolgate/engine';
import { stepCountIs, streamText, tool } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contentFreeTelemetry } from '@/lib/telemetry/content-free-telemetry';
import { observeAuditedCall } from '@/lib/telemetry/observe-audited-call';
import { ScopeContextManager } from '@/lib/telemetry/scope-context-manager';
import { startTurnTelemetry } from '@/lib/telemetry/turn-telemetry';
import { assembleTurnTools } from '@/lib/turn-table/assemble-turn-tools';
import { setTracingHandles } from '../../packages/engine/src/telemetry/tracing-handles';

// Distinctive words in the prompt, the tool's input, its output and its error: none may be exported.
const secrets = ['prompt-ibis', 'input-okapi', 'output-tapir', 'error-axolotl', 'reply-quokka'];

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 3, text: 3, reasoning: 0 },
};

/** A model that calls createTicket in its first step and answers in its second. */
function toolCallingModel() {
  let calls = 0;
  const finish = (unified: 'tool-calls' | 'stop'): LanguageModelV4StreamPart => ({
    type: 'finish',
    finishReason: { unified, raw: unified },
    usage,
  });
  return new MockLanguageModelV4({
    doStream: async () => {
      calls += 1;
      const parts: LanguageModelV4StreamPart[] =
        calls === 1
          ? [
              {
                type: 'tool-call',
                toolCallId: 'call-1',
                toolName: 'createTicket',
                input: JSON.stringify({ title: 'input-okapi' }),
              },
              finish('tool-calls'),
            ]
          : [
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: 'reply-quokka' },
              { type: 'text-end', id: 't' },
              finish('stop'),
            ];
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
}

/** Runs one traced turn as the chat does: the turn span, streamText with the shells, to its end. */
async function tracedTurn(execute: (input: { title: string }) => Promise<unknown>): Promise<void> {
  const telemetry = startTurnTelemetry({
    name: 'toolgate.turn',
    chatId: 'chat-1',
    worker: 'refund',
    kind: 'stream',
  });
  const tools = assembleTurnTools({
    baseTools: {
      createTicket: tool({
        description: 'Create a support ticket.',
        inputSchema: z.object({ title: z.string() }),
        execute,
      }),
    },
    worker: 'refund',
    chatId: 'chat-1',
    ownerId: 'user-1',
    store: createMemoryIdempotencyStore(),
    audit: observeAuditedCall,
  });
  await telemetry.run(async () => {
    const result = streamText({
      model: toolCallingModel(),
      prompt: 'prompt-ibis',
      tools,
      stopWhen: stepCountIs(3),
      ...(telemetry.aiTelemetry !== undefined && { experimental_telemetry: telemetry.aiTelemetry }),
    });
    await result.consumeStream();
    await result.steps;
  });
  telemetry.end();
}

function parentName(spans: ReadableSpan[], span: ReadableSpan | undefined): string | undefined {
  const parentId = span?.parentSpanContext?.spanId;
  return spans.find((candidate) => candidate.spanContext().spanId === parentId)?.name;
}

describe('the AI SDK’s spans through contentFreeTelemetry', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

  beforeAll(() => {
    api.context.setGlobalContextManager(new ScopeContextManager(api.ROOT_CONTEXT));
    const tracer = provider.getTracer('test');
    setTracingHandles({ api, tracer, integration: contentFreeTelemetry(new OpenTelemetry({ tracer })) });
  });

  afterAll(async () => {
    setTracingHandles(undefined);
    api.context.disable();
    await provider.shutdown();
  });

  beforeEach(() => exporter.reset());

  it('nests turn, agent, step, tool execution and tool.call, each span once', async () => {
    await tracedTurn(async ({ title }) => ({ ticketId: 'TK-000001', title: `${title} output-tapir` }));
    const spans = exporter.getFinishedSpans();
    const names = spans.map((span) => span.name).sort();
    expect(names).toEqual(
      [
        'toolgate.turn',
        'invoke_agent mock-model-id',
        'step 1',
        'step 2',
        'chat mock-model-id',
        'chat mock-model-id',
        'execute_tool createTicket',
        'tool.call',
      ].sort(),
    );
    const call = spans.find((span) => span.name === 'tool.call');
    expect(parentName(spans, call)).toBe('execute_tool createTicket');
    expect(
      parentName(
        spans,
        spans.find((span) => span.name === 'invoke_agent mock-model-id'),
      ),
    ).toBe('toolgate.turn');
    expect(call?.attributes).toMatchObject({
      'gen_ai.tool.name': 'createTicket',
      'toolgate.outcome': 'executed',
    });
  });

  it('makes tool.call the parent of what the tool starts, after an await too', async () => {
    const tracer = provider.getTracer('test');
    await tracedTurn(async () => {
      tracer.startSpan('before an await').end();
      await new Promise((resolve) => setTimeout(resolve, 1));
      tracer.startSpan('after an await').end();
      return { ticketId: 'TK-000001' };
    });
    const spans = exporter.getFinishedSpans();
    for (const name of ['before an await', 'after an await'])
      expect(
        parentName(
          spans,
          spans.find((span) => span.name === name),
        ),
      ).toBe('tool.call');
  });

  it('exports no prompt, input, output, reply or error message', async () => {
    await tracedTurn(async () => ({ ticketId: 'TK-000001', title: 'output-tapir' }));
    await tracedTurn(async ({ title }) => {
      throw new TypeError(`error-axolotl while creating ${title}`);
    });
    const exported = JSON.stringify(
      exporter.getFinishedSpans().map(({ name, attributes, events, status, links }) => ({
        name,
        attributes,
        events,
        status,
        links,
      })),
    );
    expect(exported).toContain('execute_tool createTicket');
    for (const secret of secrets) expect(exported).not.toContain(secret);
    // The failed tool execution is still marked, with a message that says nothing.
    expect(exported).toContain('AI SDK operation failed');
  });
});
