import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { createOfflineModel } from '@/lib/ai/offline-model';
import { offlineTools } from '@/lib/ai/offline-tools';
import { classifyWorker } from '@/lib/ai/router';

/**
 * A message written by hand in a customer's (or an agent's) voice, and what the offline model
 * should do with it: the calls it should make, in order, each with the arguments the message
 * makes plain. No calls: the model should make none (it asks, explains what it can do, or answers).
 */
export type BlindMessage = {
  text: string;
  language: 'zh' | 'en';
  kind: string;
  calls: ExpectedCall[];
  /** The worker the router should pick with Auto selected (absent: any). */
  worker?: string;
  /** A pattern (RegExp source, case-insensitive) the final reply must match: the offer or explanation a message with no call deserves. */
  reply?: string;
};

export type ExpectedCall = {
  tool: string;
  /** The exact title (a title the person quoted or labelled). */
  title?: string;
  /** Words an acceptable title keeps (compared case-insensitively): the object, the problem. */
  titleHas?: string[];
  /** Words an acceptable title leaves out: greetings, sign-offs, the request itself, what was corrected away. */
  titleLacks?: string[];
  orderId?: string;
  amount?: number;
  currency?: string;
};

export type MadeCall = { toolName: string; input: Record<string, unknown> };

const writeTools = new Set(['createTicket', 'addTodo', 'issueRefund']);

const allTools: LanguageModelV4CallOptions['tools'] = offlineTools.map((tool) => ({
  type: 'function' as const,
  name: tool.name,
  inputSchema: { type: 'object' },
}));

/** A result each tool could have returned, so the model goes on to its next call. */
const fakeResult = (call: MadeCall): Record<string, unknown> => {
  switch (call.toolName) {
    case 'createTicket':
      return { ticketId: 'T-000001', title: call.input.title };
    case 'addTodo':
      return { todoId: 'TD-000001', title: call.input.title };
    case 'issueRefund':
      return { refundId: 'RF-000001', ...call.input, status: 'issued' };
    case 'getOrderStatus':
      return { orderId: call.input.orderId, status: 'shipped' };
    case 'listTodos':
      return { todos: [] };
    default:
      return { results: [] };
  }
};

/** Every call the offline model makes for one user message (all tools offered), and its final text. */
export async function runMessage(text: string): Promise<{ calls: MadeCall[]; reply: string }> {
  const model = createOfflineModel();
  const prompt: LanguageModelV4Prompt = [{ role: 'user', content: [{ type: 'text', text }] }];
  const calls: MadeCall[] = [];
  for (let step = 0; step < 8; step += 1) {
    const { content } = await model.doGenerate({ prompt, tools: allTools });
    const made = content.flatMap((part) => (part.type === 'tool-call' ? [part] : []));
    if (made.length === 0) {
      const reply = content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
      return { calls, reply };
    }
    prompt.push({ role: 'assistant', content: made });
    prompt.push({
      role: 'tool',
      content: made.map((part) => {
        const call = { toolName: part.toolName, input: JSON.parse(part.input) as Record<string, unknown> };
        calls.push(call);
        return {
          type: 'tool-result' as const,
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          output: { type: 'json' as const, value: fakeResult(call) as never },
        };
      }),
    });
  }
  return { calls, reply: '' };
}

/** Longest title the ticket and to-do tools take. */
const titleLimit = 200;

/**
 * True when a title is one a person would write, as far as the message's expectations say: it keeps
 * the words it must, leaves out those it must not, fits the tool, and (in English, where it is cut
 * from the message) neither starts nor ends inside a word.
 */
function acceptableTitle(expected: ExpectedCall, title: unknown, text: string): boolean {
  if (expected.titleHas === undefined && expected.titleLacks === undefined) return true;
  if (typeof title !== 'string' || title.trim() === '' || title.length > titleLimit) return false;
  const folded = title.toLowerCase();
  if (!(expected.titleHas ?? []).every((word) => folded.includes(word.toLowerCase()))) return false;
  if ((expected.titleLacks ?? []).some((word) => folded.includes(word.toLowerCase()))) return false;
  const at = text.toLowerCase().indexOf(folded);
  if (at < 0) return true;
  const letter = /[A-Za-z0-9]/;
  const startsInWord = letter.test(text.charAt(at - 1)) && letter.test(title.charAt(0));
  const endsInWord =
    letter.test(text.charAt(at + title.length)) && letter.test(title.charAt(title.length - 1));
  return !startsInWord && !endsInWord;
}

const matches = (expected: ExpectedCall, made: MadeCall | undefined, text: string) =>
  made !== undefined &&
  made.toolName === expected.tool &&
  (expected.title === undefined || made.input.title === expected.title) &&
  acceptableTitle(expected, made.input.title, text) &&
  (expected.orderId === undefined || made.input.orderId === expected.orderId) &&
  (expected.amount === undefined || made.input.amount === expected.amount) &&
  (expected.currency === undefined || made.input.currency === expected.currency);

/**
 * Grades one message: right when the model made exactly the expected calls, in order, with the
 * expected arguments. An unwanted write is a ticket, to-do or refund that no expected call of
 * that tool asked for: worse than a miss, so it is counted on its own.
 */
export async function grade(message: BlindMessage) {
  const { calls, reply } = await runMessage(message.text);
  const worker = message.worker === undefined ? undefined : classifyWorker(message.text);
  const right =
    calls.length === message.calls.length &&
    message.calls.every((expected, index) => matches(expected, calls[index], message.text)) &&
    (message.worker === undefined || worker === message.worker) &&
    (message.reply === undefined || new RegExp(message.reply, 'iu').test(reply));
  const unwantedWrites = calls.filter(
    (call) =>
      writeTools.has(call.toolName) && !message.calls.some((expected) => expected.tool === call.toolName),
  );
  return { message, calls, reply, worker, right, unwantedWrites };
}

export type Graded = Awaited<ReturnType<typeof grade>>;

/** The score as one line per language, then one line per miss. */
export function describeScore(name: string, graded: readonly Graded[]): string {
  const share = (rows: readonly Graded[]) =>
    `${rows.filter((row) => row.right).length}/${rows.length} (${((rows.filter((row) => row.right).length / rows.length) * 100).toFixed(1)} %)`;
  const zh = graded.filter((row) => row.message.language === 'zh');
  const en = graded.filter((row) => row.message.language === 'en');
  const unwanted = graded.flatMap((row) => row.unwantedWrites);
  return [
    `${name}: ${share(graded)} right (zh ${share(zh)}, en ${share(en)}); unwanted writes: ${unwanted.length}`,
    ...graded
      .filter((row) => !row.right)
      .map(
        (row) =>
          `  ${row.unwantedWrites.length > 0 ? 'UNWANTED' : 'miss'} [${row.message.kind}] ${JSON.stringify(row.message.text)} ` +
          `expected ${JSON.stringify(row.message.calls)} got ${JSON.stringify(row.calls)}` +
          (row.message.worker !== undefined && row.worker !== row.message.worker
            ? ` (worker ${row.worker}, expected ${row.message.worker})`
            : '') +
          (row.message.reply !== undefined && row.calls.length === 0
            ? ` reply ${JSON.stringify(row.reply.slice(0, 120))}`
            : ''),
      ),
  ].join('\n');
}

/**
 * The suite of a held-out set written in five voices: it holds at least 120 messages, 60 or
 * more in each language, in five voices; its score is printed (as `name`); and nothing is
 * written that nobody asked for.
 */
export function describeVoiceSet(title: string, name: string, messages: readonly BlindMessage[]): void {
  describe(title, () => {
    it('holds at least 120 messages, 60 or more in each language, in five voices', () => {
      expect(messages.length).toBeGreaterThanOrEqual(120);
      for (const language of ['zh', 'en'] as const)
        expect(messages.filter((message) => message.language === language).length).toBeGreaterThanOrEqual(60);
      expect(new Set(messages.map((message) => message.kind)).size).toBe(5);
    });

    it('scores them, and writes nothing nobody asked for', async () => {
      const graded = await Promise.all(messages.map(grade));
      console.log(describeScore(name, graded));
      expect(graded.flatMap((row) => row.unwantedWrites)).toEqual([]);
    }, 60_000);
  });
}
