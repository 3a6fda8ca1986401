import { ProvenanceLedger } from '@toolgate/engine';
import type { TrustOf } from '@toolgate/engine/provenance';
import type { UIMessage } from 'ai';
import { median, nowMs, round } from '../support/stats';
import type { BenchCase, BenchResult } from '../support/types';

const trustOf: TrustOf = (toolName) => (toolName.startsWith('mail__') ? 'untrusted' : 'trusted');

/** About 1.5 kB of mail, as an MCP read returns it. */
function mailText(index: number): string {
  const lines = Array.from(
    { length: 12 },
    (_, line) =>
      `Line ${line} of mail ${index}: the shipment of order A${1000 + (index % 8)} is delayed by ${line + index} days.`,
  );
  return `From: sender${index}@example.com\nSubject: Update ${index}\n\n${lines.join('\n')}`;
}

/**
 * A chat of `length` messages: user messages of a sentence or two, assistant messages that
 * read a mail (untrusted) and look up an order (trusted), as a long support chat would hold.
 */
export function chatOfLength(length: number): UIMessage[] {
  return Array.from({ length }, (_, index): UIMessage => {
    if (index % 2 === 0) {
      return {
        id: `u${index}`,
        role: 'user',
        parts: [
          {
            type: 'text',
            text: `Message ${index}: please check my mail and the status of order A100${index % 8}.`,
          },
        ],
      };
    }
    return {
      id: `a${index}`,
      role: 'assistant',
      parts: [
        {
          type: 'tool-mail__read_inbox',
          toolCallId: `r${index}`,
          state: 'output-available',
          input: {},
          output: mailText(index),
        },
        {
          type: 'tool-getOrderStatus',
          toolCallId: `o${index}`,
          state: 'output-available',
          input: { orderId: 'A1001' },
          output: { orderId: 'A1001', status: 'shipped', carrier: 'SF Express', eta: '2026-12-05' },
        },
        { type: 'text', text: 'Your order is on its way.' },
      ] as UIMessage['parts'],
    };
  });
}

/** A refund whose values come from the user, a trusted read, the mail and nowhere. */
const refund = { orderId: 'A1003', amount: 480, reason: 'the shipment of order A1003 is delayed by 7 days.' };

/** Median milliseconds of one awaited call of `run`, over `rounds` rounds of `roundMs` each. */
async function timeAsync(
  run: () => Promise<unknown>,
  { rounds, roundMs, warmupMs }: { rounds: number; roundMs: number; warmupMs: number },
): Promise<number> {
  const until = nowMs() + warmupMs;
  while (nowMs() < until) await run();
  const perRound: number[] = [];
  for (let index = 0; index < rounds; index++) {
    let calls = 0;
    const start = nowMs();
    while (nowMs() - start < roundMs) {
      await run();
      calls += 1;
    }
    perRound.push((nowMs() - start) / calls);
  }
  return median(perRound);
}

/**
 * A chat of `chars` characters of digits, half typed by the person and half read from an
 * untrusted tool, in messages of 8,000 characters: the worst case for a check that looks
 * numbers up, since every digit string is a candidate.
 */
export function chatOfDigits(chars: number): UIMessage[] {
  const digits = (seed: number) =>
    Array.from({ length: 8_000 }, (_, index) => String((index * 7 + seed) % 10)).join('');
  const history: UIMessage[] = [];
  for (let index = 0; index * 16_000 < chars; index++) {
    history.push({ id: `u${index}`, role: 'user', parts: [{ type: 'text', text: digits(index) }] });
    history.push({
      id: `a${index}`,
      role: 'assistant',
      parts: [
        {
          type: 'tool-mail__read_inbox',
          toolCallId: `r${index}`,
          state: 'output-available',
          input: {},
          output: digits(index + 3),
        },
      ] as UIMessage['parts'],
    });
  }
  return history;
}

/**
 * The longest the event loop went without serving a 5 ms timer while `work` ran: how long
 * another user's request would have waited for this process.
 */
async function longestStall(work: () => Promise<unknown>): Promise<{ stallMs: number; workMs: number }> {
  let stallMs = 0;
  let last = nowMs();
  const probe = setInterval(() => {
    const now = nowMs();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 5);
  const started = nowMs();
  await work();
  const workMs = nowMs() - started;
  stallMs = Math.max(stallMs, nowMs() - last);
  clearInterval(probe);
  return { stallMs, workMs };
}

/**
 * The provenance check's cost per write call at chat lengths 10, 100 and 1,000 messages:
 * tracing one call's values against a turn's ledger, and the first write call of a turn,
 * which also reads the saved history in (a turn without a write never does). Target: a call
 * under 1 ms at 1,000 messages. Then the worst case: a chat of a million characters of digits
 * and ten parallel writes of 62 numbers each, while a 5 ms timer stands for another user's
 * request; target: that request never waits 100 ms.
 */
export const provenance: BenchCase = async ({ quick, log }) => {
  const options = quick
    ? { rounds: 3, roundMs: 30, warmupMs: 30 }
    : { rounds: 9, roundMs: 200, warmupMs: 300 };
  const rows: BenchResult[] = [];
  for (const length of [10, 100, 1000]) {
    log(`provenance: ${length} messages`);
    const history = chatOfLength(length);
    const ledger = ProvenanceLedger.fromHistory(history, trustOf);
    const assessMs = await timeAsync(() => ledger.assess(refund), options);
    // The ledger reads the history in on its first call: a turn's first write pays for it.
    const firstMs = await timeAsync(
      () => ProvenanceLedger.fromHistory(history, trustOf).assess(refund),
      options,
    );
    rows.push({
      name: `provenance/${length}-messages`,
      baseline: { label: 'first write call of a turn (reads the saved history in)', ms: round(firstMs, 3) },
      subject: { label: 'each further write call of the turn (3 fields)', ms: round(assessMs, 3) },
      ratio: round(assessMs, 3),
      ratioOf: 'milliseconds per write call',
      target: 'under 1 ms per call at 1,000 messages',
      pass: length === 1000 ? assessMs < 1 : null,
    });
  }

  const chars = quick ? 250_000 : 1_000_000;
  log(`provenance: a chat of ${chars} digits, 10 parallel writes of 62 numbers`);
  const digits = chatOfDigits(chars);
  const numbers = Object.fromEntries(Array.from({ length: 62 }, (_, index) => [`n${index}`, index * 37]));
  const runs: { stallMs: number; workMs: number }[] = [];
  const idle: number[] = [];
  for (let round = 0; round < (quick ? 2 : 5); round++) {
    const ledger = ProvenanceLedger.fromHistory(digits, trustOf);
    runs.push(
      await longestStall(() => Promise.all(Array.from({ length: 10 }, () => ledger.assess(numbers)))),
    );
    // The same probe with nothing running, as long: what the machine itself adds.
    const quiet = await longestStall(
      () => new Promise((resolve) => setTimeout(resolve, runs.at(-1)?.workMs ?? 0)),
    );
    idle.push(quiet.stallMs);
  }
  const stallMs = Math.max(...runs.map((run) => run.stallMs));
  rows.push({
    name: 'provenance/long-chat-of-digits',
    baseline: { label: 'a 5 ms timer with nothing running (longest wait)', ms: round(Math.max(...idle), 3) },
    subject: {
      label: `10 parallel writes of 62 numbers on a chat of ${chars} digits: another request's longest wait`,
      ms: round(stallMs, 3),
      turnMs: round(median(runs.map((run) => run.workMs)), 3),
      rounds: runs.length,
    },
    ratio: round(stallMs, 3),
    ratioOf: 'longest wait of another request, ms',
    target: 'another request waits under 100 ms',
    pass: stallMs < 100,
  });
  return rows;
};
