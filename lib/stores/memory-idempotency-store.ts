import { idempotencyKey } from '@/lib/shells/idempotency-key';
import type { IdempotencyRunOptions, IdempotencyStore } from './idempotency-store';

/** Options of {@link createMemoryIdempotencyStore}. */
export type MemoryIdempotencyStoreOptions = {
  /** How long a successful result is replayed, in milliseconds. Default 600000 (10 minutes). */
  ttlMs?: number;
  /** Most entries held at once; the oldest inserted is evicted first. Default 500. */
  maxEntries?: number;
  /** The clock, in epoch milliseconds. Default `Date.now`; tests inject their own. */
  now?: () => number;
};

/** The in-process store, plus `size` for tests and benchmarks. */
export type MemoryIdempotencyStore = IdempotencyStore & {
  /** Number of live (unexpired) entries, in flight or settled. */
  readonly size: number;
};

type Entry = { scope: string; promise: Promise<unknown>; expiresAt: number };

/**
 * An idempotency store held in one process (the default without Redis).
 *
 * One Map from key to the execution's promise: storing the promise, not the
 * value, is what lets concurrent callers share an execution in flight. A
 * rejection removes its own entry, so only successes are remembered. Expiry is
 * checked on read against `now()`: no timer per key, nothing left behind once
 * an entry is evicted. The Map's insertion order is the eviction order.
 */
export function createMemoryIdempotencyStore({
  ttlMs = 600_000,
  maxEntries = 500,
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
  if (typeof now !== 'function') {
    throw new TypeError(`Expected \`now\` to be a function, got \`${String(now)}\` (${typeof now})`);
  }

  const entries = new Map<string, Entry>();

  function run<T>(
    scope: string,
    toolName: string,
    args: unknown,
    execute: () => Promise<T>,
    { onReplay }: IdempotencyRunOptions = {},
  ): Promise<T> {
    const key = idempotencyKey(scope, toolName, args);
    const current = now();
    const hit = entries.get(key);
    if (hit !== undefined && hit.expiresAt > current) {
      onReplay?.();
      return hit.promise as Promise<T>;
    }
    // An expired entry is dropped so the new one is inserted at the back, as new.
    if (hit !== undefined) entries.delete(key);
    if (entries.size >= maxEntries) {
      const oldest = entries.keys().next().value as string;
      entries.delete(oldest);
    }

    // `new Promise` turns a synchronous throw in `execute` into a rejection.
    const promise: Promise<T> = new Promise<T>((resolve) => resolve(execute())).catch((error: unknown) => {
      // Only our own entry: it may have been evicted and replaced by a newer call meanwhile.
      if (entries.get(key)?.promise === promise) entries.delete(key);
      throw error;
    });
    entries.set(key, { scope, promise, expiresAt: current + ttlMs });
    return promise;
  }

  function clearScope(scope: string): void {
    // Compared on the entry, not by key prefix: a scope that contains `::` must
    // not clear another scope's entries.
    for (const [key, entry] of entries) if (entry.scope === scope) entries.delete(key);
  }

  return {
    run,
    clearScope,
    get size() {
      const current = now();
      for (const [key, entry] of entries) if (entry.expiresAt <= current) entries.delete(key);
      return entries.size;
    },
  };
}
