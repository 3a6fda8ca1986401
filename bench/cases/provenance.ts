import type { UIMessage } from 'ai';
import { ProvenanceLedger, type TrustOf } from '@/lib/provenance';
import { microbench } from '../support/microbench';
import { round } from '../support/stats';
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

/**
 * The provenance check's cost per write call at chat lengths 10, 100 and 1,000 messages:
 * tracing one call's values against a turn's ledger, and the first write call of a turn,
 * which also reads the saved history in (a turn without a write never does). Target: a call
 * under 1 ms at 1,000 messages.
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
    const results = microbench(
      [
        { label: 'assess', run: () => ledger.assess(refund) },
        // The ledger reads the history in on its first call: a turn's first write pays for it.
        { label: 'first', run: () => ProvenanceLedger.fromHistory(history, trustOf).assess(refund) },
      ],
      options,
    );
    const msOf = (label: string) => 1000 / (results[label]?.opsPerSecond ?? Number.NaN);
    const assessMs = msOf('assess');
    const firstMs = msOf('first');
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
  return rows;
};
