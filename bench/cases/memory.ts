import { createMemoryApprovalRegistry, createMemoryIdempotencyStore } from '@toolgate/engine';
import type { ApprovalDecision } from '@toolgate/engine/stores';
import { settledHeapUsed } from '../support/heap';
import { round } from '../support/stats';
import type { BenchCase, BenchResult } from '../support/types';

const kilobyte = 1024;
const megabyte = 1024 * 1024;

/** Heap bytes held by `count` waiting calls made by `park`, measured with forced GC around it. */
async function heapPerWaiter(
  count: number,
  park: (index: number, signal: AbortSignal) => Promise<unknown>,
  release: () => void,
): Promise<{ bytesEach: number }> {
  // The request's own objects exist before the registry is asked. Node creates
  // `controller.signal`, and its listener bookkeeping, lazily on first use; both
  // belong to the request (a real request signal has listeners already), so they
  // are made here, before the first measurement, not counted as the waiter's.
  const signals = Array.from({ length: count }, () => {
    const { signal } = new AbortController();
    const noop = () => {};
    signal.addEventListener('abort', noop);
    signal.removeEventListener('abort', noop);
    return signal;
  });
  const before = await settledHeapUsed();
  const waiting = signals.map((signal, index) => park(index, signal));
  const during = await settledHeapUsed();
  release();
  await Promise.all(waiting);
  waiting.length = 0;
  return { bytesEach: (during - before) / count };
}

async function pendingApprovals(count: number): Promise<BenchResult> {
  // Baseline: the least any waiting call costs, a promise and its timeout timer.
  const bareTimers: Array<() => void> = [];
  const bare = await heapPerWaiter(
    count,
    () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 60_000);
        bareTimers.push(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
    () => {
      for (const wake of bareTimers.splice(0)) wake();
    },
  );

  const registry = createMemoryApprovalRegistry();
  const approvalIds: string[] = [];
  const input = { title: 'Refund for order A1001', orderId: 'A1001' };
  const subject = await heapPerWaiter(
    count,
    (index, signal): Promise<ApprovalDecision> =>
      registry.confirm(
        { sessionId: `chat-${index % 50}`, toolCallId: `call-${index}`, toolName: 'createTicket', input },
        {
          emit: (event) => {
            approvalIds.push(event.approvalId);
          },
          timeoutMs: 60_000,
          signal,
        },
      ),
    () => {
      approvalIds.forEach((approvalId, index) => {
        registry.resolve(approvalId, `chat-${index % 50}`, true);
      });
      approvalIds.length = 0;
    },
  );
  const targetBytes = 20 * kilobyte;
  return {
    name: `memory/pending-approval (${count} pending)`,
    baseline: {
      label: 'bare promise + setTimeout per waiter',
      bytesEach: Math.round(bare.bytesEach),
    },
    subject: {
      label: 'memory approval registry, confirm() with signal',
      bytesEach: Math.round(subject.bytesEach),
    },
    ratio: round(subject.bytesEach / bare.bytesEach),
    ratioOf: 'heap bytes per pending call, subject ÷ baseline',
    target: 'subject ≤ 20 KB per pending approval',
    pass: subject.bytesEach <= targetBytes,
  };
}

/** Pushes `keys` distinct calls through `run`, 1,000 concurrent at a time; returns heap growth. */
async function heapGrowth(keys: number, run: (index: number) => Promise<unknown>): Promise<number> {
  const before = await settledHeapUsed();
  const batch = 1_000;
  for (let start = 0; start < keys; start += batch) {
    const pending: Promise<unknown>[] = [];
    for (let index = start; index < Math.min(keys, start + batch); index += 1) pending.push(run(index));
    await Promise.all(pending);
  }
  return (await settledHeapUsed()) - before;
}

/** Heap growth of a fresh memory store (cap `maxEntries`) after `keys` distinct calls. */
async function storeGrowth(keys: number, maxEntries: number): Promise<{ bytes: number; size: number }> {
  const store = createMemoryIdempotencyStore({ maxEntries });
  const bytes = await heapGrowth(keys, (index) =>
    store.run('chat-1', 'addTodo', { title: `item ${index}` }, async () => ({
      id: index,
      title: `item ${index}`,
      status: 'open',
    })),
  );
  return { bytes, size: store.size };
}

async function cappedIdempotencyStore(keys: number): Promise<BenchResult> {
  const maxEntries = 500;
  // Warm-up: the first pass compiles code and grows V8's internal tables, which is not the store's.
  await storeGrowth(20_000, maxEntries);
  // Baseline: the same store after only twice its cap, i.e. what a full store holds anyway.
  // A store that leaks per key grows with the key count; a bounded one stays near this.
  const baseline = await storeGrowth(2 * maxEntries, maxEntries);
  const subject = await storeGrowth(keys, maxEntries);
  return {
    name: `memory/idempotency-store (${keys.toLocaleString('en')} keys, cap ${maxEntries})`,
    baseline: {
      label: `same store after ${(2 * maxEntries).toLocaleString('en')} keys`,
      heapGrowthMB: round(baseline.bytes / megabyte),
      entriesAtEnd: baseline.size,
    },
    subject: {
      label: `memory idempotency store after ${keys.toLocaleString('en')} keys`,
      heapGrowthMB: round(subject.bytes / megabyte),
      entriesAtEnd: subject.size,
    },
    // Heap readings move by a few hundred KB between forced GCs; below 1 MB a ratio is noise.
    ratio: Math.abs(baseline.bytes) >= megabyte ? round(subject.bytes / baseline.bytes) : null,
    ratioOf:
      'heap growth, subject ÷ baseline; null while the baseline is below 1 MB, within GC noise (a leak would grow with the key count)',
    target: 'subject heap growth ≤ 10 MB',
    pass: subject.bytes <= 10 * megabyte,
  };
}

/**
 * Heap per pending approval (1,000 pending in the memory
 * registry; target ≤ 20 KB each) and heap growth after 1,000,000 distinct keys
 * through a memory idempotency store capped at 500 (target ≤ 10 MB). Forced GC
 * before and after; quick mode: 100 pending, 20,000 keys.
 */
export const memory: BenchCase = async ({ quick, log }) => {
  const pending = quick ? 100 : 1_000;
  const keys = quick ? 20_000 : 1_000_000;
  log(`memory: ${pending} pending approvals`);
  await pendingApprovals(pending);
  const approvals = await pendingApprovals(pending);
  log(`memory: ${keys} idempotency keys`);
  const store = await cappedIdempotencyStore(keys);
  return [approvals, store];
};
