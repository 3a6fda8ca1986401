import { createMemoryIdempotencyStore } from '@toolgate/engine';
import { median, nowMs, round } from '../support/stats';
import type { BenchCase } from '../support/types';

/** Fires `calls` concurrent `run`s (identical or distinct args) and waits for all of them. */
async function fire(calls: number, identical: boolean): Promise<{ ms: number; executions: number }> {
  const store = createMemoryIdempotencyStore();
  let executions = 0;
  const execute = async () => {
    executions += 1;
    // Settles on a later macrotask, so every caller arrives while the first is in flight.
    await new Promise((resolve) => setImmediate(resolve));
    return { id: executions, status: 'open' };
  };
  const start = nowMs();
  const pending: Promise<unknown>[] = new Array(calls);
  for (let index = 0; index < calls; index += 1) {
    const args = identical ? { title: 'Refund A1001' } : { title: `Refund A1001 #${index}` };
    pending[index] = store.run('bench-scope', 'createTicket', args, execute);
  }
  await Promise.all(pending);
  return { ms: nowMs() - start, executions };
}

/**
 * 10,000 concurrent identical calls through the memory
 * idempotency store must execute exactly once (the process fails otherwise, in
 * every mode). Their time is reported against 10,000 distinct calls, in
 * alternating rounds.
 */
export const singleFlight: BenchCase = async ({ quick, log }) => {
  const calls = 10_000;
  const rounds = quick ? 3 : 15;
  log(`single-flight: ${calls} calls × ${rounds} rounds`);
  // Warm-up, so the first measured round is not the JIT's.
  await fire(calls, true);
  await fire(calls, false);
  const identicalMs: number[] = [];
  const distinctMs: number[] = [];
  const executionCounts = new Set<number>();
  let distinctExecutions = Number.NaN;
  for (let index = 0; index < rounds; index += 1) {
    const order = index % 2 === 0 ? [true, false] : [false, true];
    for (const identical of order) {
      const { ms, executions } = await fire(calls, identical);
      if (identical) {
        identicalMs.push(ms);
        executionCounts.add(executions);
      } else {
        distinctMs.push(ms);
        distinctExecutions = executions;
      }
    }
  }
  const exact = executionCounts.size === 1 && executionCounts.has(1);
  const identical = median(identicalMs);
  const distinct = median(distinctMs);
  return [
    {
      name: 'single-flight/10k-identical',
      baseline: {
        label: `${calls} distinct calls`,
        medianMs: round(distinct),
        executions: distinctExecutions,
      },
      subject: {
        label: `${calls} concurrent identical calls`,
        medianMs: round(identical),
        executions: [...executionCounts].join(','),
      },
      ratio: round(identical / distinct),
      ratioOf: 'median time, subject ÷ baseline',
      target: 'exactly 1 execution per round (time reported)',
      pass: exact,
      critical: true,
    },
  ];
};
