import { generateText, type LanguageModel, Output } from 'ai';
import { type WorkerName, workerNames } from '@/lib/tools/tool-names-by-worker';
import { parseIntent } from './intents';
import { isOfflineModel } from './offline-model';
import { parseToolCommand } from './tool-command';

const workerByIntent = {
  createTicket: 'refund',
  getOrderStatus: 'order',
  searchKnowledgeBase: 'knowledge',
  addTodo: 'assistant',
  listTodos: 'assistant',
  // Nothing actionable goes to the help centre: a greeting there says what it can do, and an
  // unrecognised question is most likely a policy question it can search for.
  greeting: 'knowledge',
  unknown: 'knowledge',
} as const satisfies Record<ReturnType<typeof parseIntent>['kind'], WorkerName>;

/** The keyword classifier: the worker whose tools serve the message's intent (see `parseIntent`). */
export function classifyWorker(text: string): WorkerName {
  return workerByIntent[parseIntent(text).kind];
}

const routerInstructions = `You route a customer's message to exactly one worker. Answer with the worker's name only.
- order: the status, location or delivery date of a specific order (e.g. "where is my order A1001").
- refund: the user wants a support ticket opened, e.g. for a refund, a broken or missing item, a complaint.
- knowledge: general questions about policies and how things work (returns, refunds, shipping, warranty, payment, cancelling), greetings, anything else.
- assistant: the user's personal to-do list (add a to-do, remind me to…, list my to-dos).`;

/** Options for `routeWorker`. */
export type RouteWorkerOptions = {
  /** The user's message. */
  text: string;
  /** A real model to ask. Absent or the offline model: the keyword classifier decides. */
  model?: LanguageModel;
  /** Give up on the model after this long and use the classifier. Default 10000 ms. */
  timeoutMs?: number;
  /** Cancels the model call (the classifier answers instead). */
  abortSignal?: AbortSignal;
  /** The worker holding a tool, for `/tool <name> …` messages (MCP workers included). */
  workerOfTool?: (toolName: string) => string | undefined;
};

function workerNamedIn(text: unknown): WorkerName | undefined {
  if (typeof text !== 'string') return undefined;
  const word = /\b(order|refund|knowledge|assistant)\b/i.exec(text)?.[1]?.toLowerCase();
  return workerNames.find((name) => name === word);
}

/**
 * Picks the worker for one user turn. A real model is asked to choose among the four names
 * (a constrained answer); any failure — network, timeout, an answer that is not a worker —
 * falls back to the keyword classifier, so routing never fails a turn.
 */
export async function routeWorker({
  text,
  model,
  timeoutMs = 10_000,
  abortSignal,
  workerOfTool,
}: RouteWorkerOptions): Promise<string> {
  const command = parseToolCommand(text);
  const owner = command === undefined ? undefined : workerOfTool?.(command.toolName);
  if (owner !== undefined) return owner;
  if (model === undefined || isOfflineModel(model)) return classifyWorker(text);
  const signals = [AbortSignal.timeout(timeoutMs), ...(abortSignal === undefined ? [] : [abortSignal])];
  try {
    const { output } = await generateText({
      model,
      system: routerInstructions,
      prompt: text,
      output: Output.choice({
        options: [...workerNames],
        name: 'worker',
        description: 'The worker that should answer',
      }),
      maxRetries: 1,
      abortSignal: AbortSignal.any(signals),
    });
    return output;
  } catch (error) {
    // A model that ignores the JSON format often still names the worker in plain text.
    return workerNamedIn((error as { text?: unknown }).text) ?? classifyWorker(text);
  }
}
