import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4ToolResultOutput,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import type { ToolName } from '@/lib/config';
import { detectLanguage, type Intent, type Language, looksLikeQuestion, parseIntent } from './intents';
import {
  failureReply,
  greetingReply,
  outOfTableReply,
  successReply,
  type ToolOutcome,
  unknownReply,
} from './offline-replies';
import { parseToolCommand, toolNotInTableReply } from './tool-command';

/** The provider id the offline model reports; `isOfflineModel` checks it. */
export const offlineProviderId = 'toolgate.offline';

/** Options for `createOfflineModel`. */
export type OfflineModelOptions = {
  /** Pause between streamed text deltas, in milliseconds. Default 0 (tests); the app uses `OFFLINE_MODEL_DELAY_MS`. */
  delayMs?: number;
  /** Makes tool call and response ids. Default: random, so ids stay unique across turns and chats. */
  generateId?: () => string;
};

type Plan = { content: LanguageModelV4Content[]; finishReason: LanguageModelV4FinishReason };

type ToolCallRecord = { toolCallId: string; toolName: string };

const userText = (message: LanguageModelV4Prompt[number]) =>
  message.role === 'user'
    ? message.content
        .flatMap((part) => (part.type === 'text' ? [part.text] : []))
        .join('\n')
        .trim()
    : '';

/** The tools each intent calls, in order. */
function toolPlan(intent: Intent): { toolName: ToolName; input: Record<string, unknown> }[] {
  switch (intent.kind) {
    case 'createTicket':
      return [{ toolName: 'createTicket', input: { title: intent.title } }];
    case 'getOrderStatus':
      return [{ toolName: 'getOrderStatus', input: { orderId: intent.orderId } }];
    case 'searchKnowledgeBase':
      return [{ toolName: 'searchKnowledgeBase', input: { query: intent.query } }];
    case 'addTodo':
      return [
        { toolName: 'addTodo', input: { title: intent.title } },
        ...(intent.thenList ? [{ toolName: 'listTodos' as const, input: {} }] : []),
      ];
    case 'listTodos':
      return [{ toolName: 'listTodos', input: {} }];
    default:
      return [];
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

function parseMaybeJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** Reads a tool result part back into what happened: a shell's denial and rate limit are results, not errors. */
function readOutcome(toolName: string, output: LanguageModelV4ToolResultOutput): ToolOutcome {
  switch (output.type) {
    case 'execution-denied':
      return { kind: 'denied', toolName, reason: output.reason };
    case 'error-text':
    case 'error-json': {
      const message = output.type === 'error-text' ? output.value : JSON.stringify(output.value);
      // The SDK reports a schema failure as InvalidToolInputError; that is the model's cue to ask.
      const validation = /invalid\s*(?:tool\s*)?input|type validation failed/i.test(message);
      return { kind: 'error', toolName, message, validation };
    }
    default: {
      const value =
        output.type === 'json'
          ? output.value
          : output.type === 'text'
            ? parseMaybeJson(output.value)
            : output.value.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
      if (isRecord(value) && value.denied === true) {
        return {
          kind: 'denied',
          toolName,
          reason: typeof value.reason === 'string' ? value.reason : undefined,
        };
      }
      if (isRecord(value) && value.rateLimited === true) {
        const retryAfterMs = typeof value.retryAfterMs === 'number' ? value.retryAfterMs : undefined;
        return { kind: 'rateLimited', toolName, retryAfterMs };
      }
      return { kind: 'success', toolName, value };
    }
  }
}

/**
 * Decides the next step from the prompt alone, so the same conversation always gets the
 * same step: call the next planned tool that has not been called in this user turn, or
 * answer from the results. Each planned tool is called at most once per user turn, which is
 * what keeps the loop finite whatever `stopWhen` says.
 */
function planStep(options: LanguageModelV4CallOptions, generateId: () => string): Plan {
  const { prompt } = options;
  const lastUserIndex = prompt.findLastIndex((message) => message.role === 'user');
  const text = lastUserIndex >= 0 ? userText(prompt[lastUserIndex]) : '';
  const language: Language = detectLanguage(text);
  const offered =
    options.toolChoice?.type === 'none'
      ? []
      : (options.tools ?? []).flatMap((tool) => (tool.type === 'function' ? [tool.name] : []));
  const available = new Set(offered);
  const answer = (reply: string): Plan => ({
    content: [{ type: 'text', text: reply }],
    finishReason: { unified: 'stop', raw: 'stop' },
  });

  const calls: ToolCallRecord[] = [];
  const outcomes: ToolOutcome[] = [];
  for (const message of prompt.slice(lastUserIndex + 1)) {
    if (message.role !== 'assistant' && message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call') calls.push({ toolCallId: part.toolCallId, toolName: part.toolName });
      if (part.type === 'tool-result') outcomes.push(readOutcome(part.toolName, part.output));
    }
  }

  // `/tool <name> <json input>`: exactly that call if the table has it, then an answer from its result.
  const command = parseToolCommand(text);
  if (command !== undefined) {
    if (!available.has(command.toolName))
      return answer(toolNotInTableReply(command.toolName, offered, language));
    const outcome = outcomes[0];
    if (outcome === undefined) {
      return {
        content: [
          {
            type: 'tool-call',
            toolCallId: `call_${generateId()}`,
            toolName: command.toolName,
            input: JSON.stringify(command.input),
          },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      };
    }
    if (outcome.kind !== 'success') return answer(failureReply(outcome, language));
    const resultText = isRecord(outcome.value) ? outcome.value.text : undefined;
    return answer(
      typeof resultText === 'string' ? resultText : successReply(outcome.toolName, outcome.value, language),
    );
  }

  const intent = parseIntent(text);
  let steps = toolPlan(intent);
  if (
    steps.length === 0 &&
    intent.kind === 'unknown' &&
    available.has('searchKnowledgeBase') &&
    looksLikeQuestion(text)
  ) {
    steps = [{ toolName: 'searchKnowledgeBase', input: { query: text } }];
  }
  if (steps.length === 0) {
    return answer(
      intent.kind === 'greeting' || text === ''
        ? greetingReply(offered, language)
        : unknownReply(offered, language),
    );
  }
  if (!available.has(steps[0].toolName)) return answer(outOfTableReply(steps[0].toolName, offered, language));

  // A declined, expired, rate-limited or failed call ends the turn: no retry, no chaining past it.
  const failure = outcomes.find(
    (outcome): outcome is Exclude<ToolOutcome, { kind: 'success' }> => outcome.kind !== 'success',
  );
  if (failure !== undefined) return answer(failureReply(failure, language));

  const calledNames = new Set(calls.map((call) => call.toolName));
  const next = steps.find((step) => available.has(step.toolName) && !calledNames.has(step.toolName));
  if (next !== undefined) {
    return {
      content: [
        {
          type: 'tool-call',
          toolCallId: `call_${generateId()}`,
          toolName: next.toolName,
          input: JSON.stringify(next.input),
        },
      ],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    };
  }

  const paragraphs = outcomes.flatMap((outcome) =>
    outcome.kind === 'success' ? [successReply(outcome.toolName, outcome.value, language)] : [],
  );
  return answer(paragraphs.length > 0 ? paragraphs.join('\n\n') : greetingReply(offered, language));
}

const approximateTokens = (value: string) => Math.max(1, Math.ceil(value.length / 4));

function usageFor(
  options: LanguageModelV4CallOptions,
  content: LanguageModelV4Content[],
): LanguageModelV4Usage {
  const input = approximateTokens(JSON.stringify(options.prompt));
  const output = approximateTokens(
    content
      .map((part) => (part.type === 'text' ? part.text : part.type === 'tool-call' ? part.input : ''))
      .join(''),
  );
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

// A Han character or two, or a word with the space before it: small, natural-looking deltas.
const deltaPattern = /[\u3400-\u9fff\uf900-\ufaff]{1,2}|\s*[^\s\u3400-\u9fff\uf900-\ufaff]+|\s+/gu;

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return signal?.aborted ? Promise.reject(signal.reason) : Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

async function* streamParts(
  plan: Plan,
  usage: LanguageModelV4Usage,
  responseId: string,
  delayMs: number,
  signal?: AbortSignal,
): AsyncGenerator<LanguageModelV4StreamPart> {
  yield { type: 'stream-start', warnings: [] };
  yield { type: 'response-metadata', id: responseId, modelId: 'offline', timestamp: new Date() };
  for (const [index, part] of plan.content.entries()) {
    if (part.type === 'text') {
      const id = `text-${index}`;
      yield { type: 'text-start', id };
      for (const [position, delta] of (part.text.match(deltaPattern) ?? [part.text]).entries()) {
        if (position > 0) await sleep(delayMs, signal);
        yield { type: 'text-delta', id, delta };
      }
      yield { type: 'text-end', id };
    } else if (part.type === 'tool-call') {
      yield { type: 'tool-input-start', id: part.toolCallId, toolName: part.toolName };
      yield { type: 'tool-input-delta', id: part.toolCallId, delta: part.input };
      yield { type: 'tool-input-end', id: part.toolCallId };
      yield part;
    }
  }
  yield { type: 'finish', usage, finishReason: plan.finishReason };
}

/**
 * The product's embedded default model: a deterministic `LanguageModelV4` that needs no key
 * and no network. It reads the last user message (zh or en) and the tool results after it,
 * calls only tools present in the call's tool list (asked for anything else, it says what it
 * can do instead), streams its answer in small deltas, and answers in the user's language.
 */
export function createOfflineModel({
  delayMs = 0,
  generateId = defaultGenerateId,
}: OfflineModelOptions = {}) {
  return {
    specificationVersion: 'v4',
    provider: offlineProviderId,
    modelId: 'offline',
    supportedUrls: {},
    async doGenerate(options) {
      const plan = planStep(options, generateId);
      return {
        content: plan.content,
        finishReason: plan.finishReason,
        usage: usageFor(options, plan.content),
        response: { id: `response_${generateId()}`, modelId: 'offline', timestamp: new Date() },
        warnings: [],
      };
    },
    async doStream(options) {
      const plan = planStep(options, generateId);
      const parts = streamParts(
        plan,
        usageFor(options, plan.content),
        `response_${generateId()}`,
        delayMs,
        options.abortSignal,
      );
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        async pull(controller) {
          const { value, done } = await parts.next();
          if (done) controller.close();
          else controller.enqueue(value);
        },
        async cancel() {
          await parts.return(undefined);
        },
      });
      return { stream };
    },
  } satisfies LanguageModelV4;
}

function defaultGenerateId(): string {
  return crypto.randomUUID().replaceAll('-', '').slice(0, 16);
}

/** True for a model made by `createOfflineModel` (the router skips asking it to classify). */
export function isOfflineModel(model: unknown): boolean {
  return (
    typeof model === 'object' &&
    model !== null &&
    (model as { provider?: unknown }).provider === offlineProviderId
  );
}
