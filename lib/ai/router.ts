import { generateText, type LanguageModel, type ModelMessage, Output, type UIMessage } from 'ai';
import { z } from 'zod';
import { toolNamesByWorker } from '@/lib/tools/tool-catalog';
import { isWorkerName, type WorkerName, workerNames } from '@/lib/tools/worker-names';
import { questionAskedIn, startsNewTopic } from './follow-up';
import { understand } from './nlu/understand';
import { isOfflineModel } from './offline-model';
import { toolOfIntent } from './offline-tools';
import { parseToolCommand } from './tool-command';

/** The worker whose table holds `toolName` (tables given, so MCP tools can join them), or `undefined`. */
export function workerHoldingTool(
  toolName: string,
  tables: Readonly<Record<string, readonly string[]>> = toolNamesByWorker,
): WorkerName | undefined {
  const found = Object.keys(tables).find(
    (worker) => Object.hasOwn(tables, worker) && tables[worker]?.includes(toolName),
  );
  return isWorkerName(found) ? found : undefined;
}

/**
 * The trained classifier's choice for one message read alone: the worker of its first request.
 * Greetings and messages that ask for nothing go to the help centre, the front desk of a support
 * product: its greeting lists what it does, and an unrecognised question is most likely one it can search.
 */
export function classifyWorker(text: string): WorkerName {
  const command = parseToolCommand(text);
  const commandWorker = command === undefined ? undefined : workerHoldingTool(command.toolName);
  if (commandWorker !== undefined) return commandWorker;
  const understanding = understand(text);
  const [first] = understanding.requests;
  // A request is answered by a built-in tool: the first worker its facts list holds it. A write the
  // model would ask about first ("I want a human" → a ticket?) goes to the worker that can make it.
  const intent = first?.intent ?? understanding.unsureWrite;
  return (intent === undefined ? undefined : toolOfIntent(intent))?.workers[0] ?? 'knowledge';
}

const textOf = (message: UIMessage) =>
  message.parts
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('\n')
    .trim();

const workerOf = (message: UIMessage): WorkerName | undefined => {
  const worker = (message.metadata as { worker?: unknown } | undefined)?.worker;
  return isWorkerName(worker) ? worker : undefined;
};

/** The last assistant message before the latest user message, if any. */
function lastAnswer(messages: readonly UIMessage[]): UIMessage | undefined {
  const lastUser = messages.findLastIndex((message) => message.role === 'user');
  return messages.slice(0, Math.max(0, lastUser)).findLast((message) => message.role === 'assistant');
}

/**
 * Routing without a real model. When the last answer ended with a question, a reply that does
 * not start a new topic stays with the worker that asked: the one its metadata names, else the
 * one holding the tool the question is about (an answer may be stored or sent without metadata),
 * so "the fridge is noisy" after "What should the ticket say?" fills the ticket.
 */
function routeWithoutModel(text: string, messages: readonly UIMessage[]): WorkerName {
  if (parseToolCommand(text) !== undefined) return classifyWorker(text);
  const previous = lastAnswer(messages);
  if (previous !== undefined) {
    const previousText = textOf(previous);
    const askedFor = questionAskedIn(previousText);
    const asker = workerOf(previous) ?? (askedFor === undefined ? undefined : workerHoldingTool(askedFor));
    const asked = askedFor !== undefined || /[?？]\s*$/.test(previousText);
    if (asker !== undefined && asked && !startsNewTopic(understand(text), { text, asked: askedFor }))
      return asker;
  }
  return classifyWorker(text);
}

const routerInstructions = `You route the latest message of a customer conversation to exactly one worker.
- order: the status, location or delivery date of specific orders (e.g. "where is my order A1001").
- refund: the user wants money back on an order (a refund), or a support ticket opened, e.g. for a broken or missing item, a complaint.
- knowledge: general questions about policies and how things work (returns, refund policy and timing, shipping, warranty, payment, cancelling), greetings, anything else.
- assistant: the user's personal to-do list (add a to-do, remind me to…, list my to-dos).
Assistant messages are marked with the worker that wrote them. When the latest message answers a question the previous assistant message asked, choose that worker; when it starts a new topic, choose by the new topic.`;

const routeSchema = z.object({
  worker: z.enum(workerNames).describe('The worker that should answer the latest user message'),
});

/** How many earlier messages the real model sees: enough for a question and its answer. */
const recentMessages = 6;

function recentConversation(text: string, messages: readonly UIMessage[]): ModelMessage[] {
  const lastUser = messages.findLastIndex((message) => message.role === 'user');
  const earlier = messages.slice(Math.max(0, lastUser - recentMessages), Math.max(0, lastUser));
  const turns: ModelMessage[] = earlier.flatMap((message): ModelMessage[] => {
    const content = textOf(message);
    if (content === '') return [];
    if (message.role === 'user') return [{ role: 'user', content }];
    if (message.role !== 'assistant') return [];
    const worker = workerOf(message);
    return [{ role: 'assistant', content: worker === undefined ? content : `[${worker} worker] ${content}` }];
  });
  return [...turns, { role: 'user', content: text }];
}

/** Options for `routeWorker`. */
export type RouteWorkerOptions = {
  /** The user's latest message. */
  text: string;
  /**
   * The conversation including the latest user message, as saved (assistant messages carry
   * `metadata.worker`). Default: just `text`.
   */
  messages?: UIMessage[];
  /** A real model to ask. Absent or the offline model: the trained classifier decides. */
  model?: LanguageModel;
  /** Give up on the model after this long and use the classifier. Default 10000 ms. */
  timeoutMs?: number;
  /** Cancels the model call (the classifier answers instead). */
  abortSignal?: AbortSignal;
  /** The worker holding a tool that is not built in (an MCP tool), for `/tool <name> …` messages. */
  workerOfTool?: (toolName: string) => string | undefined;
};

function workerNamedIn(text: unknown): WorkerName | undefined {
  if (typeof text !== 'string') return undefined;
  const word = /\b(order|refund|knowledge|assistant)\b/i.exec(text)?.[1]?.toLowerCase();
  return workerNames.find((name) => name === word);
}

/**
 * Picks the worker for one user turn. A `/tool <name>` message goes to the worker holding that
 * tool. A real model is asked for a structured choice (an enum of the workers) over the recent
 * conversation; any failure — network, timeout, an answer that is not a worker — falls back to
 * the classifier and the conversation rules, so routing never fails a turn.
 */
export async function routeWorker({
  text,
  messages = [],
  model,
  timeoutMs = 10_000,
  abortSignal,
  workerOfTool,
}: RouteWorkerOptions): Promise<string> {
  const command = parseToolCommand(text);
  if (command !== undefined && workerHoldingTool(command.toolName) !== undefined) return classifyWorker(text);
  const mcpWorker = command === undefined ? undefined : workerOfTool?.(command.toolName);
  if (mcpWorker !== undefined) return mcpWorker;
  if (model === undefined || isOfflineModel(model)) return routeWithoutModel(text, messages);
  const signals = [AbortSignal.timeout(timeoutMs), ...(abortSignal === undefined ? [] : [abortSignal])];
  try {
    const { output } = await generateText({
      model,
      system: routerInstructions,
      messages: recentConversation(text, messages),
      output: Output.object({
        schema: routeSchema,
        name: 'route',
        description: 'The worker that should answer',
      }),
      maxRetries: 1,
      abortSignal: AbortSignal.any(signals),
    });
    return output.worker;
  } catch (error) {
    // A model that ignores the JSON format often still names the worker in plain text.
    return workerNamedIn((error as { text?: unknown }).text) ?? routeWithoutModel(text, messages);
  }
}
