import { describe, expect, it } from 'vitest';
import { type ToolRequest, understand } from '@/lib/ai/nlu/understand';
import heldOut from './fixtures/held-out-messages.json';

/*
 * Messages written by hand, in the way people write to support, by someone reading no corpus
 * template; the corpus generator never reads this file. Each names the tool call expected
 * first (`null`: none) and, where the message makes it plain, the title, order numbers or a
 * refund's amount (a refund without one must leave it out, so the model asks).
 */
type HeldOutMessage = {
  text: string;
  language: 'zh' | 'en';
  toolName: ToolRequest['intent'] | null;
  title?: string;
  orderIds?: string[];
  /** A refund's amount; absent on a refund request that names none (the model must ask for it). */
  amount?: number;
};

const messages = heldOut as HeldOutMessage[];
const writeTools = new Set<string>(['createTicket', 'addTodo', 'issueRefund']);

/** True when a request would write if it were made: a title for a ticket or to-do, an order and an amount for a refund. */
const wouldWrite = (request: ToolRequest) =>
  request.intent === 'issueRefund'
    ? request.orderIds.length === 1 && request.amount !== undefined
    : 'title' in request && request.title !== '';

function grade(message: HeldOutMessage) {
  const { requests } = understand(message.text);
  const [first] = requests;
  const right =
    message.toolName === null
      ? requests.length === 0
      : first?.intent === message.toolName &&
        (message.title === undefined || ('title' in first && first.title === message.title)) &&
        (message.orderIds === undefined ||
          ('orderIds' in first && JSON.stringify(first.orderIds) === JSON.stringify(message.orderIds))) &&
        (first.intent !== 'issueRefund' || first.amount === message.amount);
  // A write nobody asked for (or the other write tool) costs trust; a missed one costs a rephrase.
  // A write without a title (a refund without an order or amount) is a question back, not a call.
  const wrongWrites = requests.filter(
    (request) => writeTools.has(request.intent) && request.intent !== message.toolName && wouldWrite(request),
  );
  return { message, requests, right, wrongWrites };
}

const graded = messages.map(grade);
const accuracyOf = (rows: typeof graded) => rows.filter((row) => row.right).length / rows.length;

describe('the offline model on hand-written messages', () => {
  it('holds at least 60 messages, 25 or more in each language', () => {
    expect(messages.length).toBeGreaterThanOrEqual(60);
    expect(messages.filter((message) => message.language === 'zh').length).toBeGreaterThanOrEqual(25);
    expect(messages.filter((message) => message.language === 'en').length).toBeGreaterThanOrEqual(25);
  });

  it('holds 30 or more about refunds in both languages, eight or more of which must not refund', () => {
    const aboutRefunds = messages.filter((message) =>
      /refund|money back|退款|退钱|退\s*\d|退我|退给|退回/i.test(message.text),
    );
    expect(aboutRefunds.length).toBeGreaterThanOrEqual(30);
    for (const language of ['zh', 'en'] as const)
      expect(aboutRefunds.filter((message) => message.language === language).length).toBeGreaterThanOrEqual(
        12,
      );
    expect(
      aboutRefunds.filter((message) => message.toolName !== 'issueRefund').length,
    ).toBeGreaterThanOrEqual(8);
  });

  it('reads at least 90 % of them right in each language (the tool, its title and order numbers)', () => {
    const zh = graded.filter((row) => row.message.language === 'zh');
    const en = graded.filter((row) => row.message.language === 'en');
    console.log(
      [
        `Hand-written held-out: ${graded.length} messages, ${(accuracyOf(graded) * 100).toFixed(1)} % right ` +
          `(zh ${(accuracyOf(zh) * 100).toFixed(1)} %, en ${(accuracyOf(en) * 100).toFixed(1)} %; ` +
          `refund requests ${(accuracyOf(graded.filter((row) => row.message.toolName === 'issueRefund')) * 100).toFixed(1)} %)`,
        ...graded
          .filter((row) => !row.right)
          .map(
            (row) =>
              `  miss: ${JSON.stringify(row.message.text)} expected ${row.message.toolName ?? 'no call'}` +
              `${row.message.title === undefined ? '' : ` “${row.message.title}”`}` +
              `${row.message.amount === undefined ? '' : ` ${row.message.amount}`} → ${JSON.stringify(row.requests)}`,
          ),
      ].join('\n'),
    );
    expect(accuracyOf(zh)).toBeGreaterThanOrEqual(0.9);
    expect(accuracyOf(en)).toBeGreaterThanOrEqual(0.9);
  });

  it('never writes what was not asked for: no ticket, to-do or refund where none, or another, was meant', () => {
    expect(graded.flatMap((row) => row.wrongWrites.map((request) => [row.message.text, request]))).toEqual(
      [],
    );
  });
});
