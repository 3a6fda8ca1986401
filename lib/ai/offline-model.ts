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
import { denialNoteOf, isEditedOutput, revealHiddenCharacters } from '@toolgate/engine/client';
import { isAttachedFileText } from '@/lib/shared/attached-file-text';
import type { ToolName } from '@/lib/tools/tool-catalog';
import { answerTo, missingArgumentQuestion, questionAskedIn, startsNewTopic } from './follow-up';
import { detectLanguage, type Language } from './language';
import {
  answerRequest,
  looksLikeQuestion,
  searchQuery,
  type ToolRequest,
  understand,
  understoodPart,
} from './nlu/understand';
import { otherMakerInMessage, otherMakerOf } from './offline-decided-by';
import {
  declinedReply,
  failureReply,
  greetingReply,
  otherWorkerReply,
  outOfTableReply,
  successReply,
  type ToolOutcome,
  thanksReply,
  toolCommandTooDeepReply,
  toolCommandUsageReply,
  truncationNote,
  unknownReply,
  unknownToolReply,
  unsupportedReply,
  unsureWriteAskedIn,
  unsureWriteReply,
  wantsPersonReply,
  wantsPersonTitle,
} from './offline-replies';
import { callsFor, inputsFor, offlineTools, type PlannedCall, toolOfIntent } from './offline-tools';
import { supersededNotice, waitingRequestStep, withdrawnReply } from './offline-waiting';
import { looksLikeToolCommand, readToolCommand } from './tool-command';
import { withdrawRequestToolName } from './waiting-requests-block';

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

type ToolCallRecord = { toolCallId: string; toolName: string; input: unknown };

/** What a call was about, in the user's words (its title, order number or question), for a reply naming it. */
function callSubject(calls: readonly ToolCallRecord[], toolCallId: string): string | undefined {
  const call = calls.find((candidate) => candidate.toolCallId === toolCallId);
  const input = typeof call?.input === 'string' ? parseMaybeJson(call.input) : call?.input;
  if (!isRecord(input)) return undefined;
  const subject = [input.title, input.orderId, input.query].find(
    (value): value is string => typeof value === 'string' && value.trim() !== '',
  );
  return subject?.trim();
}

// What the person typed: a text part that stands for an attached file is someone else's words.
const typedText = (part: LanguageModelV4Prompt[number]['content'][number]) =>
  typeof part === 'object' && part.type === 'text' && !isAttachedFileText(part.text) ? [part.text] : [];

const userText = (message: LanguageModelV4Prompt[number]) =>
  message.role === 'user' ? message.content.flatMap(typedText).join('\n').trim() : '';

const messageText = (message: LanguageModelV4Prompt[number]) =>
  message.role === 'user' || message.role === 'assistant'
    ? message.content.flatMap(typedText).join('\n').trim()
    : '';

/**
 * The conversation before the latest user message, as the offline model needs it: the
 * question the last answer ended with (if it was one of its own) and the language the user
 * wrote in last, for a message such as "A1008" that has no language of its own.
 */
function readConversation(prompt: LanguageModelV4Prompt, lastUserIndex: number) {
  const earlier = prompt.slice(0, Math.max(0, lastUserIndex));
  const lastAnswer = earlier.findLast(
    (message) => message.role === 'assistant' && messageText(message) !== '',
  );
  // From the latest message back, stopping at the first with a language: a long history is not read whole.
  let language: Language | undefined;
  for (let index = earlier.length - 1; index >= 0 && language === undefined; index -= 1) {
    const message = earlier[index];
    if (message?.role === 'user') language = detectLanguage(understoodPart(messageText(message)).text);
  }
  const asked = lastAnswer === undefined ? undefined : questionAskedIn(messageText(lastAnswer));
  return { asked, language, earlier: asked === undefined ? [] : requestSoFar(earlier, asked) };
}

/**
 * The user messages of a request that is being asked about, oldest first: walking back from the
 * latest question of `asked`, each user message before a question of that same tool. The answer
 * to the latest question completes what they said ("refund A1002" → "how much?" → "80").
 */
function requestSoFar(earlier: LanguageModelV4Prompt, asked: ToolName): string[] {
  const texts: string[] = [];
  let index = earlier.length - 1;
  for (let turns = 0; turns < 5; turns += 1) {
    const question = earlier.findLastIndex(
      (message, position) => position <= index && message.role === 'assistant' && messageText(message) !== '',
    );
    if (
      question < 0 ||
      questionAskedIn(messageText(earlier[question] as LanguageModelV4Prompt[number])) !== asked
    )
      break;
    const user = earlier.findLastIndex((message, position) => position < question && message.role === 'user');
    if (user < 0) break;
    texts.unshift(understoodPart(messageText(earlier[user] as LanguageModelV4Prompt[number])).text);
    index = user - 1;
  }
  return texts;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

const yes =
  /^(?:yes|yeah|yep|yup|sure|ok|okay|please|please do|do it|go ahead|y|是|是的|对|对的|好|好的|嗯|嗯嗯|可以|要|行|麻烦了|麻烦你了)[\s!！.。,，~]*(?:please|pls|thanks|thank you|谢谢)?[\s!！.。]*$/iu;
const no =
  /^(?:no|nope|nah|n|no thanks|no need|不|不用|不要|不是|不了|不用了|算了|没事)[\s!！.。,，~]*(?:thanks|thank you|谢谢)?[\s!！.。]*$/iu;

/**
 * The answer to the question the model asks instead of an unsure write ("Would you like me to open
 * a support ticket?"): "yes" makes the message it asked about the request (its title the message, or
 * the refund read from it, still asking for what is missing); "no" is `'declined'`; anything else
 * is read on its own (`undefined`).
 */
function confirmedWrite(
  prompt: LanguageModelV4Prompt,
  lastUserIndex: number,
  text: string,
): { toolName: ToolName; request: ToolRequest } | 'declined' | undefined {
  const affirmative = yes.test(text.trim());
  if (!affirmative && !no.test(text.trim())) return undefined;
  const question = prompt.findLastIndex(
    (message, index) => index < lastUserIndex && message.role === 'assistant' && messageText(message) !== '',
  );
  if (question < 0) return undefined;
  const toolName = unsureWriteAskedIn(messageText(prompt[question] as LanguageModelV4Prompt[number]));
  if (toolName === undefined) return undefined;
  if (!affirmative) return 'declined';
  const asked = prompt.findLastIndex((message, index) => index < question && message.role === 'user');
  const tool = offlineTools.find((candidate) => candidate.name === toolName);
  if (asked < 0 || tool === undefined) return undefined;
  const about = understoodPart(messageText(prompt[asked] as LanguageModelV4Prompt[number])).text;
  // "I want a human" → "yes": the ticket says what was asked, not the words asking it.
  const understood = understand(about);
  if (understood.wantsPerson === true && understood.unsureWrite === tool.offline.intent) {
    const language = detectLanguage(about) ?? detectLanguage(text) ?? 'en';
    return { toolName, request: answerRequest(tool.offline.intent, wantsPersonTitle(language)) };
  }
  return { toolName, request: answerRequest(tool.offline.intent, about) };
}

function parseMaybeJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** A person's note as the reply repeats it: its hidden characters shown (⟨U+202E⟩), never acted out. */
const shownNote = (note: string | undefined) =>
  note === undefined ? undefined : revealHiddenCharacters(note);

/** Reads a tool result part back into what happened: a shell's denial and rate limit are results, not errors. */
function readOutcome(toolName: string, output: LanguageModelV4ToolResultOutput): ToolOutcome {
  switch (output.type) {
    case 'execution-denied':
      return {
        kind: 'denied',
        toolName,
        reason: output.reason,
        note: shownNote(output.reason === undefined ? undefined : denialNoteOf(output.reason)),
        by: otherMakerInMessage(output.reason),
      };
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
          ...(typeof value.retryAfterMs === 'number' && { retryAfterMs: value.retryAfterMs }),
          by: otherMakerOf(value, 'decidedBy') ?? otherMakerInMessage(value.message),
          note: shownNote(
            typeof value.note === 'string'
              ? value.note
              : typeof value.message === 'string'
                ? denialNoteOf(value.message)
                : undefined,
          ),
        };
      }
      if (isRecord(value) && value.rateLimited === true) {
        const retryAfterMs = typeof value.retryAfterMs === 'number' ? value.retryAfterMs : undefined;
        return { kind: 'rateLimited', toolName, retryAfterMs };
      }
      return { kind: 'success', toolName, value, edited: isEditedOutput(value) };
    }
  }
}

/**
 * Decides the next step from the prompt alone, so the same conversation always gets the
 * same step. The latest user message is read by the trained model (or as a `/tool` command,
 * or as the answer to the question the last reply asked); its requests for this worker's
 * tools become a fixed list of calls, made step by step (neighbouring calls of one tool in the
 * same step) until all are made, then the
 * answer. The list is fixed per user turn, which keeps the loop finite whatever `stopWhen` says.
 */
function planStep(options: LanguageModelV4CallOptions, generateId: () => string): Plan {
  const { prompt } = options;
  const lastUserIndex = prompt.findLastIndex((message) => message.role === 'user');
  const fullText = lastUserIndex >= 0 ? userText(prompt[lastUserIndex]) : '';
  // Only the start of a long message is read, and the reply says so (a `/tool` command is parsed whole).
  const { text, truncated } = understoodPart(fullText);
  const conversation = readConversation(prompt, lastUserIndex);
  const language: Language = detectLanguage(text) ?? conversation.language ?? 'en';
  const offered =
    options.toolChoice?.type === 'none'
      ? []
      : (options.tools ?? []).flatMap((tool) => (tool.type === 'function' ? [tool.name] : []));
  const available = new Set(offered);
  const system = prompt.flatMap((message) => (message.role === 'system' ? [message.content] : [])).join('\n');
  const setAside = supersededNotice(system, language);
  const note = `${truncated && !looksLikeToolCommand(fullText) ? `${truncationNote(language)}\n\n` : ''}${setAside === '' ? '' : `${setAside}\n\n`}`;
  const answer = (reply: string): Plan => ({
    content: [{ type: 'text', text: `${note}${reply}` }],
    finishReason: { unified: 'stop', raw: 'stop' },
  });

  const calls: ToolCallRecord[] = [];
  const outcomes: { toolCallId: string; outcome: ToolOutcome }[] = [];
  for (const message of prompt.slice(lastUserIndex + 1)) {
    if (message.role !== 'assistant' && message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call')
        calls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
      if (part.type === 'tool-result')
        outcomes.push({ toolCallId: part.toolCallId, outcome: readOutcome(part.toolName, part.output) });
    }
  }

  const withdrawn = outcomes.find(({ outcome }) => outcome.toolName === withdrawRequestToolName)?.outcome;
  if (withdrawn !== undefined)
    return answer(withdrawnReply(withdrawn.kind === 'success' ? withdrawn.value : undefined, language));
  const successes = outcomes.flatMap(({ outcome }) =>
    outcome.kind === 'success'
      ? [successReply(outcome.toolName, outcome.value, language, { edited: outcome.edited })]
      : [],
  );
  // A declined, expired, rate-limited or failed call ends the turn: no retry, no chaining past it.
  // Calls of the same step that went through are still answered, so a mixed step (one card
  // allowed, the other denied) tells both outcomes; identical paragraphs (Deny all) are said once.
  const failures = outcomes.filter(
    (entry): entry is { toolCallId: string; outcome: Exclude<ToolOutcome, { kind: 'success' }> } =>
      entry.outcome.kind !== 'success',
  );
  if (failures.length > 0) {
    const failureReplies = failures.map(({ toolCallId, outcome }) =>
      failureReply(outcome, language, {
        subject: successes.length > 0 ? callSubject(calls, toolCallId) : undefined,
      }),
    );
    return answer([...new Set([...successes, ...failureReplies])].join('\n\n'));
  }
  const callOrAnswer = (planned: PlannedCall[], closing: string[]): Plan => {
    // Calls go out in order; the number already made says which comes next. Neighbouring calls of
    // one tool do not depend on each other, so they share a step (parallel calls, as a hosted
    // model makes them): two tickets asked for at once wait for approval side by side.
    const next = planned.slice(calls.length);
    const first = next[0];
    if (first !== undefined) {
      const sameTool = next.findIndex((call) => call.toolName !== first.toolName);
      return {
        content: next.slice(0, sameTool === -1 ? next.length : sameTool).map((call) => ({
          type: 'tool-call' as const,
          toolCallId: `call_${generateId()}`,
          toolName: call.toolName,
          input: JSON.stringify(call.input),
        })),
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      };
    }
    const paragraphs = [...successes, ...closing];
    return answer(paragraphs.length > 0 ? paragraphs.join('\n\n') : greetingReply(offered, language));
  };

  const waiting = calls.length === 0 ? waitingRequestStep({ system, text, language, available }) : undefined;
  if (waiting?.kind === 'reply') return answer(waiting.text);
  if (waiting?.kind === 'withdraw')
    return callOrAnswer(
      [{ toolName: withdrawRequestToolName, input: { approvalId: waiting.approvalId } }],
      [],
    );

  const reading = readToolCommand(fullText);
  if (reading.kind === 'malformed') return answer(toolCommandUsageReply(language));
  if (reading.kind === 'too-deep') return answer(toolCommandTooDeepReply(reading.limit, language));
  if (reading.kind === 'command') {
    const { command } = reading;
    if (!available.has(command.toolName))
      return answer(unknownToolReply(command.toolName, offered, language));
    return callOrAnswer([command], []);
  }

  const understanding = understand(text);
  // "Would you like me to open a ticket?" → "yes": the message the question was about is the request.
  const confirmed = confirmedWrite(prompt, lastUserIndex, text);
  if (confirmed === 'declined') return answer(declinedReply('setAside', offered, language));
  const answered =
    confirmed !== undefined && available.has(confirmed.toolName)
      ? confirmed.request
      : conversation.asked !== undefined &&
          available.has(conversation.asked) &&
          !startsNewTopic(understanding, { text, asked: conversation.asked })
        ? answerTo(conversation.asked, text, conversation.earlier)
        : undefined;
  // Each request goes to the tool whose facts name its label; a label no built-in tool answers asks for nothing.
  const requests = (answered === undefined ? understanding.requests : [answered]).flatMap((request) => {
    const tool = toolOfIntent(request.intent);
    return tool === undefined ? [] : [{ request, toolName: tool.name }];
  });

  if (requests.length === 0) {
    if (understanding.intent === 'thanks' && understanding.declined !== 'outOfScope')
      return answer(thanksReply(language));
    // Asked to cancel or change what no tool can: say so, and what it can do instead.
    if (understanding.declined === 'unsupported' && understanding.unsupported !== undefined)
      return answer(unsupportedReply(understanding.unsupported, offered, language));
    // Asked for nothing a tool does, for a write already done, or told not to write: say so, do nothing.
    if (understanding.declined !== undefined)
      return answer(declinedReply(understanding.declined, offered, language));
    // Unsure whether a ticket, refund or to-do was meant: ask, rather than write what nobody asked for.
    const unsure =
      understanding.unsureWrite === undefined ? undefined : toolOfIntent(understanding.unsureWrite)?.name;
    if (unsure !== undefined && available.has(unsure))
      return answer(
        understanding.wantsPerson === true
          ? wantsPersonReply(unsure, language)
          : unsureWriteReply(unsure, language),
      );
    // A question nothing else reads is searched for: the tool that answers questions gets the whole message.
    const searcher = offlineTools.find(
      (tool) => tool.offline.answersQuestions === true && available.has(tool.name),
    );
    if (understanding.intent !== 'greeting' && searcher !== undefined && looksLikeQuestion(text)) {
      return callOrAnswer(
        inputsFor(searcher, searchQuery(text)).map((input) => ({ toolName: searcher.name, input })),
        [],
      );
    }
    return answer(
      understanding.intent === 'greeting' || text === ''
        ? greetingReply(offered, language)
        : unknownReply(offered, language),
    );
  }
  const mine = requests.filter(({ toolName }) => available.has(toolName));
  if (mine.length === 0) return answer(outOfTableReply(requests[0]?.toolName as ToolName, offered, language));

  // A request with its argument missing becomes a question, asked last so the next message answers it.
  const questions = mine.flatMap(({ request }) => missingArgumentQuestion(request, language) ?? []);
  const planned = mine
    .filter(({ request }) => missingArgumentQuestion(request, language) === undefined)
    .flatMap(({ request }) => callsFor(request, language));
  const elsewhere = requests
    .filter(({ toolName }) => !available.has(toolName))
    .map(({ request, toolName }) => otherWorkerReply(toolName, request, language));
  return callOrAnswer(planned, [...elsewhere, ...questions.slice(0, 1)]);
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
