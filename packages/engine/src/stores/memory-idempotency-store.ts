import { idempotencyKey } from '../shared/idempotency-key';
import type { IdempotencyRunOptions, IdempotencyStore } from './idempotency-store';

/** Options of {@link createMemoryIdempotencyStore}. */
export type MemoryIdempotencyStoreOptions = {
  /** How long a successful result is replayed, in milliseconds. Default 600000 (10 minutes). */
  ttlMs?: number;
  /** Most entries one partition (user) holds; its own oldest finished entry is evicted first. Default 500. */
  maxEntries?: number;
  /**
   * Most entries held at once over every partition, the store's memory bound. When it is
   * reached the largest partition gives up its oldest finished entry. Default 100000.
   */
  maxTotalEntries?: number;
  /** The clock, in epoch milliseconds. Default `Date.now`; tests inject their own. */
  now?: () => number;
};

/** The in-process store, plus `size` for tests and benchmarks. */
export type MemoryIdempotencyStore = IdempotencyStore & {
  /** Number of live (unexpired) entries, in flight or settled. */
  readonly size: number;
};

type Entry = {
  scope: string;
  partition: string;
  promise: Promise<unknown>;
  expiresAt: number;
  settled: boolean;
};

/**
 * An idempotency store held in one process (the default without Redis).
 *
 * One Map from key to the execution's promise: storing the promise, not the
 * value, is what lets concurrent callers share an execution in flight. A
 * rejection removes its own entry, so only successes are remembered. Expiry is
 * checked on read against `now()`: no timer per key, nothing left behind once
 * an entry is evicted. Insertion order is the eviction order, within a partition:
 * a user's new entry evicts that user's oldest finished one, never another user's,
 * and an execution still running is never evicted.
 */
export function createMemoryIdempotencyStore({
  ttlMs = 600_000,
  maxEntries = 500,
  maxTotalEntries = 100_000,
  now = Date.now,
}: MemoryIdempotencyStoreOptions = {}): MemoryIdempotencyStore {
  if (!(typeof ttlMs === 'number' && Number.isFinite(ttlMs) && ttlMs > 0)) {
    throw new TypeError(
      `Expected \`ttlMs\` to be a positive number, got \`${String(ttlMs)}\` (${typeof ttlMs})`,
    );
  }
  if (!(Number.isInteger(maxEntries) && maxEntries > 0)) {
    throw new TypeError(
      `Expected \`maxEntries\` to be a positive integer, got \`${String(maxEntries)}\` (${typeof maxEntries})`,
    );
  }
  if (!(Number.isInteger(maxTotalEntries) && maxTotalEntries >= maxEntries)) {
    throw new TypeError(
      `Expected \`maxTotalEntries\` to be an integer ≥ maxEntries (${maxEntries}), got \`${String(maxTotalEntries)}\``,
    );
  }
  if (typeof now !== 'function') {
    throw new TypeError(`Expected \`now\` to be a function, got \`${String(now)}\` (${typeof now})`);
  }

  const entries = new Map<string, Entry>();
  // Each partition's keys in insertion order (a Set keeps it), for eviction within it.
  const keysByPartition = new Map<string, Set<string>>();

  function remove(key: string): void {
    const entry = entries.get(key);
    if (entry === undefined) return;
    entries.delete(key);
    const keys = keysByPartition.get(entry.partition);
    keys?.delete(key);
    if (keys?.size === 0) keysByPartition.delete(entry.partition);
  }

  /** Evicts the oldest finished (or expired) entry of `partition`; false when all are still running. */
  function evictOldest(partition: string, current: number): boolean {
    for (const key of keysByPartition.get(partition) ?? []) {
      const entry = entries.get(key);
      if (entry !== undefined && (entry.settled || entry.expiresAt <= current)) {
        remove(key);
        return true;
      }
    }
    return false;
  }

  function largestPartition(): string | undefined {
    let largest: string | undefined;
    let size = 0;
    for (const [partition, keys] of keysByPartition) {
      if (keys.size > size) {
        size = keys.size;
        largest = partition;
      }
    }
    return largest;
  }

  function run<T>(
    scope: string,
    toolName: string,
    args: unknown,
    execute: () => Promise<T>,
    { onReplay, partition = '' }: IdempotencyRunOptions = {},
  ): Promise<T> {
    const key = idempotencyKey(scope, toolName, args);
    const current = now();
    const hit = entries.get(key);
    if (hit !== undefined && hit.expiresAt > current) {
      onReplay?.();
      return hit.promise as Promise<T>;
    }
    // An expired entry is dropped so the new one is inserted at the back, as new.
    if (hit !== undefined) remove(key);
    if ((keysByPartition.get(partition)?.size ?? 0) >= maxEntries) evictOldest(partition, current);
    if (entries.size >= maxTotalEntries) {
      const largest = largestPartition();
      if (largest !== undefined) evictOldest(largest, current);
    }

    // `new Promise` turns a synchronous throw in `execute` into a rejection.
    const entry: Entry = {
      scope,
      partition,
      promise: Promise.resolve(),
      expiresAt: current + ttlMs,
      settled: false,
    };
    const promise: Promise<T> = new Promise<T>((resolve) => resolve(execute())).then(
      (value) => {
        entry.settled = true;
        return value;
      },
      (error: unknown) => {
        // Only our own entry: it may have been evicted and replaced by a newer call meanwhile.
        if (entries.get(key) === entry) remove(key);
        throw error;
      },
    );
    entry.promise = promise;
    entries.set(key, entry);
    let keys = keysByPartition.get(partition);
    if (keys === undefined) {
      keys = new Set();
      keysByPartition.set(partition, keys);
    }
    keys.add(key);
    return promise;
  }

  function clearScope(scope: string): void {
    // Compared on the entry, not by key prefix: a scope that contains `::` must
    // not clear another scope's entries.
    for (const [key, entry] of entries) if (entry.scope === scope) remove(key);
  }

  function forget(scope: string, toolName: string, args: unknown): void {
    const key = idempotencyKey(scope, toolName, args);
    if (entries.get(key)?.settled) remove(key);
  }

  return {
    run,
    clearScope,
    forget,
    get size() {
      const current = now();
      for (const [key, entry] of entries) if (entry.expiresAt <= current) remove(key);
      return entries.size;
    },
  };
}
