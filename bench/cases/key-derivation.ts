import { stableStringify } from '@toolgate/engine';
import fastJsonStableStringify from 'fast-json-stable-stringify';
import jsonStableStringify from 'json-stable-stringify';
import { microbench } from '../support/microbench';
import { median, round } from '../support/stats';
import type { BenchCase, BenchResult } from '../support/types';

/** A createTicket input as the SDK hands it to execute: keys in the model's order. */
export const smallArguments = {
  title: 'Refund for a damaged kettle',
  orderId: 'A1001',
  detail: 'Arrived cracked',
};

/**
 * A 50-field argument object, nested three levels, keys deliberately out of
 * order, with strings, numbers, booleans, null, arrays and one undefined field.
 */
export function nestedArguments(): Record<string, unknown> {
  const line = (index: number) => ({
    sku: `SKU-${1000 + index}`,
    quantity: index + 1,
    price: 9.5 * (index + 1),
  });
  return {
    title: 'Replace the damaged items of order A1001',
    orderId: 'A1001',
    priority: 'high',
    customer: {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      vip: true,
      address: { street: '12 Analytical Row', city: 'London', zip: 'N1 9GU', country: 'GB' },
      phone: null,
      since: 2019,
      segment: 'retail',
    },
    lines: [line(0), line(1), line(2), line(3)],
    tags: ['damaged', 'refund', 'priority'],
    metadata: {
      source: 'chat',
      locale: 'en',
      attempts: 1,
      flags: { escalate: false, notify: true, internal: false },
      note: undefined,
      sessionAge: 42,
      retries: 0,
    },
    detail: 'Two of four items arrived cracked; the customer wants replacements, not a refund.',
    createdBy: 'assistant',
    amount: 123.45,
    currency: 'EUR',
    channel: 'web',
    dueInDays: 3,
    assignee: null,
    sla: { hours: 24, breached: false },
  };
}

/** Counts own properties at every level (array elements are not fields, their objects' keys are). */
export function countFields(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + countFields(item), 0);
  if (value === null || typeof value !== 'object') return 0;
  return Object.values(value).reduce((sum: number, item) => sum + 1 + countFields(item), 0);
}

/**
 * The key derivation (`stableStringify`) against
 * `JSON.stringify` of the same object, with two sorted-key libraries for context.
 * Target: at most 2 × the time of `JSON.stringify`, on both objects.
 */
export const keyDerivation: BenchCase = async ({ quick, log }) => {
  const options = quick
    ? { rounds: 3, roundMs: 30, warmupMs: 50 }
    : { rounds: 15, roundMs: 200, warmupMs: 300 };
  const objects = [
    { name: 'small', value: smallArguments },
    { name: `nested-${countFields(nestedArguments())}-fields`, value: nestedArguments() },
  ];
  const rows: BenchResult[] = [];
  for (const { name, value } of objects) {
    log(`key derivation: ${name}`);
    const results = microbench(
      [
        { label: 'JSON.stringify', run: () => JSON.stringify(value) },
        { label: 'stableStringify', run: () => stableStringify(value) },
        { label: 'fast-json-stable-stringify', run: () => fastJsonStableStringify(value) },
        { label: 'json-stable-stringify', run: () => jsonStableStringify(value) },
      ],
      options,
    );
    const opsOf = (label: string) => results[label]?.opsPerSecond ?? Number.NaN;
    const baselineOps = opsOf('JSON.stringify');
    const subjectOps = opsOf('stableStringify');
    // Time ratio per round (the two ran back to back in each), then the median: one noisy
    // round on a busy machine moves the verdict less than a ratio of two medians would.
    const baselineRounds = results['JSON.stringify']?.roundsOpsPerSecond ?? [];
    const subjectRounds = results.stableStringify?.roundsOpsPerSecond ?? [];
    const roundRatios = baselineRounds.map((ops, index) => ops / (subjectRounds[index] ?? Number.NaN));
    const ratio = median(roundRatios);
    rows.push({
      name: `key-derivation/${name}`,
      baseline: { label: 'JSON.stringify', opsPerSecond: Math.round(baselineOps) },
      subject: {
        label: 'stableStringify (safe-stable-stringify)',
        opsPerSecond: Math.round(subjectOps),
        'fast-json-stable-stringify ×time': round(baselineOps / opsOf('fast-json-stable-stringify')),
        'json-stable-stringify ×time': round(baselineOps / opsOf('json-stable-stringify')),
        ratioSpread: `${round(Math.min(...roundRatios))}–${round(Math.max(...roundRatios))}`,
      },
      ratio: round(ratio),
      ratioOf: 'time per call, subject ÷ baseline (median of the per-round ratios; spread min–max)',
      target: 'time ≤ 2 × JSON.stringify',
      pass: ratio <= 2,
    });
  }
  return rows;
};
