import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as api from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { ScopeContextManager } from '@/lib/telemetry/scope-context-manager';
import { ChatStreamReader, jsonRequest, userMessage } from '../support/chat-client';
import { startFakeOpenAIServer } from '../support/fake-openai-server';
import { postChat, postDecision, sessionFetch, signInAsGuest } from '../support/http-chat';
import { useInMemoryTracing } from '../support/in-memory-tracing';
import { type NextServer, startNextServer } from '../support/next-server';
import { OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver';
import { configureServer } from '../support/server-env';

// Distinctive words in the tickets' titles: they must never appear in what is exported.
const approvedTitle = 'zephyr-quokka printer on floor nine';
const deniedTitle = 'marmalade-ocelot projector hums';
const parkedTitle = 'saffron-narwhal blinds stuck';

function serverEnvironment(receiver: OtlpReceiver, protocol?: string): Record<string, string> {
  return {
    DATABASE_PATH: join(mkdtempSync(join(tmpdir(), 'toolgate-tracing-')), 'toolgate.db'),
    AI_MODEL: 'offline',
    OFFLINE_MODEL_DELAY_MS: '0',
    AGENT_CONFIRM_TOOLS: 'createTicket',
    TOOLGATE_PARK_AFTER_MS: '300',
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    ...(protocol !== undefined && { OTEL_EXPORTER_OTLP_PROTOCOL: protocol }),
    // Batches leave every 100 ms instead of every 5 s, so the test does not wait long.
    OTEL_BSP_SCHEDULE_DELAY: '100',
  };
}

/** Server environment that logs every module and chunk the server loads into the returned file. */
function moduleLog(): { environment: Record<string, string>; loaded: () => string[] } {
  const file = join(mkdtempSync(join(tmpdir(), 'toolgate-modules-')), 'modules.log');
  return {
    environment: {
      NODE_OPTIONS: `--require ${resolve('tests/support/module-load-log.cjs')}`,
      TOOLGATE_MODULE_LOG: file,
    },
    loaded: () => readFileSync(file, 'utf8').split('\n'),
  };
}

// The OpenTelemetry SDK, its exporters and resources as the build names their chunks (the
// API alone is loaded by Next.js itself either way).
const sdkModule = /@opentelemetry[_/](sdk-trace|exporter-trace|resources|core|otlp)/;

/** Sends `text` in `chatId`, answers its card with `approved`, and reads the turn to its end. */
async function decidedTurn(
  server: NextServer,
  chatId: string,
  text: string,
  approved: boolean,
): Promise<void> {
  const reader = await postChat(server.url, { id: chatId, messages: [userMessage(text)] });
  const card = await reader.until('tool-approval-request');
  const decision = await postDecision(server.url, {
    approvalId: card.approvalId,
    sessionId: chatId,
    approved,
  });
  expect(decision.status).toBe(200);
  await reader.rest();
}

function toolCallSpans(receiver: OtlpReceiver): ReceivedSpan[] {
  return receiver.spans().filter((span) => span.name === 'tool.call');
}

/** The names of a span's ancestors, nearest first, within what was received. */
function ancestry(spans: ReceivedSpan[], span: ReceivedSpan): string[] {
  const byId = new Map(spans.map((candidate) => [candidate.spanId, candidate]));
  const names: string[] = [];
  let parent = span.parentSpanId === undefined ? undefined : byId.get(span.parentSpanId);
  while (parent !== undefined) {
    names.push(parent.name);
    parent = parent.parentSpanId === undefined ? undefined : byId.get(parent.parentSpanId);
  }
  return names;
}

/** Polls `condition` (a hook cannot use `expect.poll`); throws after `timeoutMs`. */
async function waitFor(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not so within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const eventNames = (span: ReceivedSpan | undefined) => span?.events.map((event) => event.name);

describe('traces over OTLP/HTTP JSON', () => {
  const receiver = new OtlpReceiver();
  let server: NextServer;

  beforeAll(async () => {
    await receiver.start();
    server = await startNextServer(serverEnvironment(receiver, 'http/json'));
    await signInAsGuest(server.url);
    await decidedTurn(server, 'trace-a', `create a ticket: ${approvedTitle}`, true);
    await decidedTurn(server, 'trace-a', `create a ticket: ${approvedTitle}`, true);
    await decidedTurn(server, 'trace-b', `create a ticket: ${deniedTitle}`, false);
    await waitFor(
      () =>
        toolCallSpans(receiver).length === 3 &&
        receiver.spans().filter((span) => span.name === 'toolgate.turn').length === 3,
    );
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    await receiver.stop();
  });

  it('exports a span tree per turn: the turn, the AI SDK’s spans, and one tool.call span per call', () => {
    const spans = receiver.spans();
    for (const call of toolCallSpans(receiver)) {
      const ancestors = ancestry(spans, call);
      const turn = ancestors.indexOf('toolgate.turn');
      // Between them, the AI SDK's own spans (the agent, its step, its tool execution).
      expect(turn).toBeGreaterThan(0);
      expect(ancestors.slice(0, turn).every((name) => name !== 'tool.call' && name !== 'toolgate.turn')).toBe(
        true,
      );
      expect(spans.find((span) => span.spanId === call.parentSpanId)?.traceId).toBe(call.traceId);
    }
    // The AI SDK's model call is there too, under the same turn, with no prompt or reply recorded.
    const modelCall = spans.find((span) => span.name === 'chat offline');
    expect(modelCall?.attributes).toMatchObject({ 'gen_ai.request.model': 'offline' });
    expect(ancestry(spans, modelCall as ReceivedSpan)).toContain('toolgate.turn');
    for (const span of spans) {
      expect(span.attributes).not.toHaveProperty('gen_ai.input.messages');
      expect(span.attributes).not.toHaveProperty('gen_ai.output.messages');
      expect(span.attributes).not.toHaveProperty('gen_ai.tool.call.arguments');
      expect(span.attributes).not.toHaveProperty('gen_ai.tool.call.result');
      expect(span.attributes).not.toHaveProperty('gen_ai.system_instructions');
    }
  });

  it('gives an approved call its outcome, wait, idempotency and the shells’ work as events', () => {
    const byOutcome = (outcome: string) =>
      toolCallSpans(receiver).find((span) => span.attributes['toolgate.outcome'] === outcome) as ReceivedSpan;
    const [approved, replayed, denied] = [byOutcome('executed'), byOutcome('replayed'), byOutcome('denied')];
    expect(approved.attributes).toMatchObject({
      'gen_ai.tool.name': 'createTicket',
      'gen_ai.tool.call.id': expect.any(String),
      'toolgate.outcome': 'executed',
      'toolgate.approval.wait_ms': expect.any(Number),
      'toolgate.idempotency': 'executed',
    });
    expect(eventNames(approved)).toEqual([
      'approval.requested',
      'approval.approved',
      'execution.start',
      'execution.end',
      'idempotency.executed',
    ]);
    expect(replayed.attributes).toMatchObject({
      'gen_ai.tool.name': 'createTicket',
      'toolgate.outcome': 'replayed',
      'toolgate.approval.wait_ms': expect.any(Number),
      'toolgate.idempotency': 'replayed',
    });
    expect(eventNames(replayed)).toEqual(['approval.requested', 'approval.approved', 'idempotency.replayed']);
    expect(denied.attributes).toMatchObject({
      'gen_ai.tool.name': 'createTicket',
      'toolgate.outcome': 'denied',
      'toolgate.approval.wait_ms': expect.any(Number),
    });
    expect(denied.attributes).not.toHaveProperty('toolgate.idempotency');
    expect(eventNames(denied)).toEqual(['approval.requested', 'approval.denied']);
  });

  it('exports no tool input or output value anywhere', () => {
    const raw = receiver.rawText();
    expect(raw).toContain('tool.call');
    for (const words of [approvedTitle, deniedTitle, 'zephyr', 'marmalade', 'TK-'])
      expect(raw).not.toContain(words);
  });

  it('links the continuation of a parked call to the call that asked', async () => {
    const reader = await postChat(server.url, {
      id: 'trace-parked',
      messages: [userMessage(`create a ticket: ${parkedTitle}`)],
    });
    const card = await reader.until('tool-approval-request');
    await reader.leave();
    // Parked once nobody follows it: the turn has ended and there is nothing to resume.
    await expect
      .poll(
        async () =>
          (
            (await (await sessionFetch(`${server.url}/api/chats/trace-parked`)).json()) as {
              activeStream: unknown;
            }
          ).activeStream,
        { timeout: 20_000 },
      )
      .toBeNull();
    const decision = await postDecision(server.url, {
      approvalId: card.approvalId,
      sessionId: 'trace-parked',
      approved: true,
    });
    expect(decision.status).toBe(200);
    await expect
      .poll(
        () =>
          toolCallSpans(receiver).filter((span) => span.attributes['toolgate.outcome'] === 'executed').length,
        {
          timeout: 20_000,
        },
      )
      .toBe(2);

    // The asking call's span ends once its turn has parked.
    await expect
      .poll(() => toolCallSpans(receiver).some((span) => span.attributes['toolgate.parked'] === true), {
        timeout: 20_000,
      })
      .toBe(true);
    const spans = receiver.spans();
    const asking = toolCallSpans(receiver).find((span) => span.attributes['toolgate.parked'] === true);
    const continuation = spans.find((span) => span.name === 'toolgate.continuation');
    expect(continuation?.links).toEqual([
      expect.objectContaining({ traceId: asking?.traceId, spanId: asking?.spanId }),
    ]);
    const carriedOut = toolCallSpans(receiver).find(
      (span) => span.traceId === continuation?.traceId && span.attributes['toolgate.outcome'] === 'executed',
    );
    expect(ancestry(spans, carriedOut as ReceivedSpan)).toContain('toolgate.continuation');
    expect(carriedOut?.attributes['toolgate.approval.wait_ms']).toBeGreaterThanOrEqual(300);
    expect(receiver.rawText()).not.toContain('saffron');
  });
});

describe('traces over OTLP/HTTP protobuf (the default)', () => {
  const receiver = new OtlpReceiver();
  const modules = moduleLog();
  let server: NextServer;

  beforeAll(async () => {
    await receiver.start();
    server = await startNextServer({ ...serverEnvironment(receiver), ...modules.environment });
    await signInAsGuest(server.url);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await receiver.stop();
  });

  it('sends protobuf to /v1/traces, with the tool.call span and without the input', async () => {
    await decidedTurn(server, 'trace-proto', `create a ticket: ${approvedTitle}`, true);
    await expect.poll(() => receiver.rawText().includes('tool.call'), { timeout: 20_000 }).toBe(true);
    expect(receiver.exports.every((received) => received.path === '/v1/traces')).toBe(true);
    expect(receiver.exports.every((received) => received.contentType === 'application/x-protobuf')).toBe(
      true,
    );
    const raw = receiver.rawText();
    for (const name of ['toolgate.turn', 'gen_ai.tool.name', 'toolgate.outcome', 'toolgate.idempotency'])
      expect(raw).toContain(name);
    expect(raw).not.toContain('zephyr');
    expect(modules.loaded().some((module) => sdkModule.test(module))).toBe(true);
  });
});

describe('with OTEL_EXPORTER_OTLP_ENDPOINT unset', () => {
  const receiver = new OtlpReceiver();
  const modules = moduleLog();
  let server: NextServer;

  beforeAll(async () => {
    await receiver.start();
    const { OTEL_EXPORTER_OTLP_ENDPOINT: _unset, ...environment } = serverEnvironment(receiver);
    server = await startNextServer({ ...environment, ...modules.environment });
    await signInAsGuest(server.url);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await receiver.stop();
  });

  it('loads no OpenTelemetry SDK or exporter and sends nothing, while turns and tools run', async () => {
    await decidedTurn(server, 'trace-off', `create a ticket: ${approvedTitle}`, true);
    // Longer than a batch's delay: an exporter, were there one, would have sent by now.
    await new Promise((done) => setTimeout(done, 1_000));
    expect(receiver.exports).toEqual([]);
    const loaded = modules.loaded();
    expect(loaded.some((module) => module.includes('.next-test/server/app/api/chat'))).toBe(true);
    expect(loaded.filter((module) => sdkModule.test(module))).toEqual([]);
  });
});

describe('calls the AI SDK refuses before any shell sees them', () => {
  const tracing = useInMemoryTracing();
  let fake: Awaited<ReturnType<typeof startFakeOpenAIServer>> | undefined;

  beforeAll(() => {
    // The app's own context manager, as a traced server registers it: spans find their turn.
    api.context.setGlobalContextManager(new ScopeContextManager(api.ROOT_CONTEXT));
  });

  afterAll(async () => {
    api.context.disable();
    await fake?.close();
  });

  /** Sends `text` in a new chat and reads the turn to its end; the tool.call spans it left. */
  async function turnSpans(chatId: string, text: string, worker?: string) {
    const response = await chat(
      jsonRequest('/api/chat', { id: chatId, message: userMessage(text), ...(worker && { worker }) }),
    );
    expect(response.status).toBe(200);
    await new ChatStreamReader(response).rest();
    return tracing.finishedSpans().filter((span) => span.name === 'tool.call');
  }

  it('leaves a tool.call span with an error status for an input the tool’s schema rejects', async () => {
    // Longer than the 200 characters addTodo takes: rejected before the tool runs. (The offline
    // model never writes such a title, so a scripted model asks for it.)
    const title = 'quokka-lantern '.repeat(20);
    const overlong = await startFakeOpenAIServer({
      script: (body) =>
        body.messages.at(-1)?.role === 'user'
          ? { toolCall: { name: 'addTodo', arguments: JSON.stringify({ title }) } }
          : { text: 'That title is too long.' },
    });
    await configureServer({
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: overlong.baseURL,
      AI_MODEL: undefined,
      AGENT_CONFIRM_TOOLS: 'createTicket',
    });
    const [span, ...others] = await turnSpans(
      'rejected-input',
      'add a todo, a long one',
      'assistant',
    ).finally(() => overlong.close());
    expect(others).toEqual([]);
    expect(span?.attributes).toMatchObject({
      'gen_ai.tool.name': 'addTodo',
      'gen_ai.tool.call.id': expect.any(String),
      'toolgate.outcome': 'error',
      'error.type': 'AI_InvalidToolInputError',
    });
    expect(span?.status).toEqual({ code: 2, message: 'AI_InvalidToolInputError' });
    expect(JSON.stringify(span?.attributes)).not.toContain('quokka');
    // In the turn's trace, as every other call's span.
    const turn = tracing.finishedSpans().find((candidate) => candidate.name === 'toolgate.turn');
    expect(span?.spanContext().traceId).toBe(turn?.spanContext().traceId);
  });

  it('leaves a tool.call span with an error status for a tool the worker’s table does not hold', async () => {
    fake = await startFakeOpenAIServer({
      script: (body) =>
        body.messages.at(-1)?.role === 'user'
          ? { toolCall: { name: 'wipeAllAccounts', arguments: '{"confirm":"yes-quokka"}' } }
          : { text: 'I cannot do that.' },
    });
    await configureServer({
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: fake.baseURL,
      AI_MODEL: undefined,
      AGENT_CONFIRM_TOOLS: 'createTicket',
    });
    const [span, ...others] = await turnSpans('rejected-name', 'please wipe everything', 'assistant');
    expect(others).toEqual([]);
    expect(span?.attributes).toMatchObject({
      'gen_ai.tool.name': 'wipeAllAccounts',
      'toolgate.outcome': 'error',
      'error.type': 'AI_NoSuchToolError',
    });
    expect(span?.status).toEqual({ code: 2, message: 'AI_NoSuchToolError' });
    expect(JSON.stringify(span?.attributes)).not.toContain('quokka');
  });
});
