import { createHash, randomUUID } from 'node:crypto';
import { idempotencyKey } from '../shared/idempotency-key';
import type { IdempotencyRunOptions, IdempotencyStore } from './idempotency-store';
import { redisChannels } from './redis-channels';
import {
  DEFAULT_READY_TIMEOUT_MS,
  ensureRedisReady,
  type RedisClient,
  toStoreUnavailable,
} from './redis-client';
import { createRedisSubscription } from './redis-subscription';

/** Options of {@link createRedisIdempotencyStore}. */
export type RedisIdempotencyStoreOptions = {
  /** A node-redis v6 client (see `getRedisClient`); connected on first use if it is not yet. */
  client: RedisClient;
  /**
   * A connection for pub/sub (a connection in subscriber mode can run nothing
   * else). Default: `client.duplicate()`, created on the first wait and closed by `close()`.
   */
  subscriber?: RedisClient;
  /** How long a successful result is replayed, counted from completion, in ms. Default 600000. */
  ttlMs?: number;
  /** Most completed entries kept under `prefix`; the oldest inserted is evicted first. Default 500. */
  maxEntries?: number;
  /** Namespace of every key and of the channel. Default `'toolgate:idem:'`. */
  prefix?: string;
  /**
   * How often a caller waiting on another process's execution re-reads the key,
   * in ms, in case a pub/sub notice was missed. Default 200.
   */
  pollIntervalMs?: number;
  /**
   * Lifetime of an in-progress claim, in ms. The winner renews it every third of
   * this while it runs, so only a crashed winner lets it lapse; then a waiter
   * takes over. Default 15000.
   */
  claimTtlMs?: number;
};

/** The Redis store, plus `close()` to release the subscriber connection it opened. */
export type RedisIdempotencyStore = IdempotencyStore & {
  /** Unsubscribes, and quits the subscriber connection if the store created it. */
  close(): Promise<void>;
};

/** Values stored under an entry key: a claim while running, the result once done. */
const pendingMarker = 'P:';
const doneMarker = 'D:';

/*
 * Claims the key (SET NX PX) or reports what holds it, in one round trip. A
 * claim is recorded in the scope's set right away so clearScope also removes
 * claims in flight. Returns {1} when claimed, {0, value} otherwise.
 */
const claimScript = `
local value = redis.call('GET', KEYS[1])
if value then return {0, value} end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('SADD', KEYS[2], KEYS[1])
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[2], ARGV[3]) end
return {1}
`;

/*
 * Replaces our claim with the result, records the insertion order and evicts the
 * oldest completed entries beyond the cap, then notifies waiters. Does nothing
 * (returns 0) when the claim is no longer ours: it lapsed or clearScope removed it.
 * A popped member is deleted only if it still holds a result: an expired entry
 * whose key was since re-claimed must not lose that new claim.
 */
const completeScript = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
local ttl = tonumber(ARGV[3])
redis.call('SET', KEYS[1], ARGV[2], 'PX', ttl)
local seq = redis.call('INCR', KEYS[3])
redis.call('PEXPIRE', KEYS[3], ttl)
redis.call('ZADD', KEYS[2], seq, KEYS[1])
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('SADD', KEYS[4], KEYS[1])
if redis.call('PTTL', KEYS[4]) < ttl then redis.call('PEXPIRE', KEYS[4], ttl) end
local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[4])
if over > 0 then
  local evicted = redis.call('ZPOPMIN', KEYS[2], over)
  for i = 1, #evicted, 2 do
    local value = redis.call('GET', evicted[i])
    if value and string.sub(value, 1, 2) == '${doneMarker}' then redis.call('DEL', evicted[i]) end
  end
end
redis.call('PUBLISH', ARGV[5], KEYS[1])
return 1
`;

/** Releases our claim after a failed execution (only ours) and wakes waiters to retry. */
const releaseScript = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('PUBLISH', ARGV[2], KEYS[1])
return 1
`;

/** Renews our claim while the execution runs. */
const renewScript = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])
`;

/** Deletes every entry and claim of one scope, and their places in the eviction order. */
const clearScopeScript = `
local keys = redis.call('SMEMBERS', KEYS[1])
for _, key in ipairs(keys) do
  redis.call('DEL', key)
  redis.call('ZREM', KEYS[2], key)
end
redis.call('DEL', KEYS[1])
return #keys
`;

/** Deletes one finished entry (never a claim in flight). */
const forgetScript = `
local value = redis.call('GET', KEYS[1])
if value and string.sub(value, 1, 2) == '${doneMarker}' then return redis.call('DEL', KEYS[1]) end
return 0
`;

type Flight = { scope: string; promise: Promise<{ value: unknown; replayed: boolean }> };

/**
 * An idempotency store shared by every process that points at one Redis.
 *
 * The first caller of a key claims it atomically (a token under `P:`, with a
 * claim TTL it renews while running); on success the claim becomes the JSON
 * result (`D:`, PX `ttlMs`) and waiters are told on a pub/sub channel; on failure
 * the claim is deleted (only if still ours) and the error rethrown. A caller that
 * finds a claim waits for the channel or the next poll and never runs the tool
 * itself unless the claim disappears without a result (crash, failure, clearScope).
 * Within one process, concurrent calls share one in-flight promise before Redis
 * is touched. When Redis cannot be reached `run` rejects with
 * `StoreUnavailableError` and does not execute: a guarded write never runs unprotected.
 *
 * Differences from the memory store:
 * - results must be JSON-serialisable: a replay (from Redis) is a `JSON.parse`
 *   copy, so a `Date` comes back as a string and `undefined` fields are dropped;
 *   the executing process and its concurrent local callers get the original value;
 *   a result `JSON.stringify` rejects is returned but not cached;
 * - the TTL runs on the Redis server's clock from completion (memory: from the
 *   call's start, on the injected `now`);
 * - `maxEntries` counts completed entries per partition (user) under `prefix`,
 *   ordered by completion, shared by all processes (memory: every entry of the
 *   partition, in flight or done, ordered by call start, per process); there is
 *   no total cap: Redis memory is bounded by the TTL and the partitions' caps;
 * - when the winner fails, callers in the same process share its rejection, as in
 *   memory, but a caller waiting in another process takes the claim and runs the
 *   tool itself (nothing was cached, so this is the "next call");
 * - `onReplay` of a caller that shares or waits for another execution fires once
 *   that execution succeeds (memory: as soon as the caller joins it);
 * - a crashed winner blocks waiters for at most `claimTtlMs`;
 * - if the result cannot be stored after a successful execution (Redis went away),
 *   the result is still returned; the claim lapses after `claimTtlMs`;
 * - all Lua scripts touch several keys: a single Redis (not Cluster) is assumed.
 */
export function createRedisIdempotencyStore({
  client,
  subscriber,
  ttlMs = 600_000,
  maxEntries = 500,
  prefix = 'toolgate:idem:',
  pollIntervalMs = 200,
  claimTtlMs = 15_000,
}: RedisIdempotencyStoreOptions): RedisIdempotencyStore {
  if (client === undefined || client === null || typeof client.eval !== 'function') {
    throw new TypeError(`Expected \`client\` to be a node-redis client, got \`${String(client)}\``);
  }
  assertPositiveInteger('ttlMs', ttlMs);
  assertPositiveInteger('maxEntries', maxEntries);
  assertPositiveInteger('pollIntervalMs', pollIntervalMs);
  assertPositiveInteger('claimTtlMs', claimTtlMs);
  if (typeof prefix !== 'string') {
    throw new TypeError(`Expected \`prefix\` to be a string, got \`${String(prefix)}\` (${typeof prefix})`);
  }

  // Bookkeeping keys contain no `::`, so they can never equal an entry key.
  const orderKey = `${prefix}#order`;
  const sequenceKey = `${prefix}#seq`;
  const channel = redisChannels.idempotency(prefix);
  const scopeSetKey = (scope: string) =>
    `${prefix}#scope:${createHash('sha256').update(scope).digest('hex')}`;

  const flightsByKey = new Map<string, Flight>();
  const wakersByKey = new Map<string, Set<() => void>>();

  const onMessage = (key: string) => {
    for (const wake of wakersByKey.get(key) ?? []) wake();
  };

  // Subscribed on first wait; a failure only costs latency, since waiters also poll.
  const subscription = createRedisSubscription({
    client,
    subscriber,
    channel,
    onMessage,
    label: 'idempotency subscriber',
  });

  /** Waits for a notice about `key` or for the poll interval, whichever comes first. */
  function waitForNotice(key: string): Promise<void> {
    return new Promise((resolve) => {
      const wakers = wakersByKey.get(key) ?? new Set();
      wakersByKey.set(key, wakers);
      const wake = () => {
        clearTimeout(timer);
        wakers.delete(wake);
        if (wakers.size === 0) wakersByKey.delete(key);
        resolve();
      };
      const timer = setTimeout(wake, pollIntervalMs);
      wakers.add(wake);
    });
  }

  async function command<T>(action: string, call: () => Promise<T>): Promise<T> {
    try {
      await ensureRedisReady(client, DEFAULT_READY_TIMEOUT_MS);
      return await call();
    } catch (error) {
      throw toStoreUnavailable(error, action);
    }
  }

  /** The cross-process protocol for one key: claim and run, or wait for the holder. */
  async function settle(scope: string, key: string, partition: string, execute: () => Promise<unknown>) {
    const token = `${pendingMarker}${randomUUID()}`;
    const setKey = scopeSetKey(scope);
    for (;;) {
      const reply = (await command('claiming an idempotency key', () =>
        client.eval(claimScript, {
          keys: [key, setKey],
          arguments: [token, String(claimTtlMs), String(Math.max(ttlMs, claimTtlMs))],
        }),
      )) as [number, string?];
      if (reply[0] === 1)
        return { value: await runClaimed(key, setKey, token, partition, execute), replayed: false };
      const current = String(reply[1]);
      if (current.startsWith(doneMarker)) {
        return { value: (JSON.parse(current.slice(doneMarker.length)) as { v: unknown }).v, replayed: true };
      }
      // Another caller holds the claim: wait for its notice (or the next poll), then look again.
      subscription.listen().catch(() => {});
      await waitForNotice(key);
    }
  }

  async function runClaimed(
    key: string,
    setKey: string,
    token: string,
    partition: string,
    execute: () => Promise<unknown>,
  ) {
    // Renewing the claim keeps a slow but live winner from being taken over.
    const renewal = setInterval(
      () => {
        client.eval(renewScript, { keys: [key], arguments: [token, String(claimTtlMs)] }).catch(() => {});
      },
      Math.max(1, Math.floor(claimTtlMs / 3)),
    );
    renewal.unref();
    let value: unknown;
    try {
      value = await execute();
    } catch (error) {
      clearInterval(renewal);
      // Success-only caching: free the key so the next call (or a waiter) runs again.
      await client.eval(releaseScript, { keys: [key], arguments: [token, channel] }).catch(() => {});
      throw error;
    }
    clearInterval(renewal);
    let payload: string | undefined;
    try {
      payload = JSON.stringify({ v: value });
    } catch {
      payload = undefined;
    }
    if (payload === undefined) {
      await client.eval(releaseScript, { keys: [key], arguments: [token, channel] }).catch(() => {});
    } else {
      // The write already happened: a failure to record it must not turn into an
      // error the model would retry. The claim then lapses after claimTtlMs.
      await client
        .eval(completeScript, {
          // Each partition (user) has its own eviction order: one user's entries never push out another's.
          keys: [key, partition === '' ? orderKey : `${orderKey}:${partition}`, sequenceKey, setKey],
          arguments: [token, `${doneMarker}${payload}`, String(ttlMs), String(maxEntries), channel],
        })
        .catch(() => {});
    }
    return value;
  }

  async function run<T>(
    scope: string,
    toolName: string,
    args: unknown,
    execute: () => Promise<T>,
    { onReplay, partition = '' }: IdempotencyRunOptions = {},
  ): Promise<T> {
    const key = `${prefix}${idempotencyKey(scope, toolName, args)}`;
    const shared = flightsByKey.get(key);
    if (shared !== undefined) {
      const { value } = await shared.promise;
      onReplay?.();
      return value as T;
    }
    const flight: Flight = {
      scope,
      promise: settle(scope, key, partition, () => new Promise<T>((resolve) => resolve(execute()))),
    };
    flightsByKey.set(key, flight);
    try {
      const { value, replayed } = await flight.promise;
      if (replayed) onReplay?.();
      return value as T;
    } finally {
      if (flightsByKey.get(key) === flight) flightsByKey.delete(key);
    }
  }

  async function clearScope(scope: string): Promise<void> {
    for (const [key, flight] of flightsByKey) if (flight.scope === scope) flightsByKey.delete(key);
    await command('clearing a scope', () =>
      client.eval(clearScopeScript, { keys: [scopeSetKey(scope), orderKey] }),
    );
  }

  async function forget(scope: string, toolName: string, args: unknown): Promise<void> {
    const key = `${prefix}${idempotencyKey(scope, toolName, args)}`;
    await command('forgetting an idempotency key', () => client.eval(forgetScript, { keys: [key] }));
  }

  function close(): Promise<void> {
    return subscription.close();
  }

  return { run, clearScope, forget, close };
}

function assertPositiveInteger(name: string, value: unknown): void {
  if (!(typeof value === 'number' && Number.isInteger(value) && value > 0)) {
    throw new TypeError(
      `Expected \`${name}\` to be a positive integer, got \`${String(value)}\` (${typeof value})`,
    );
  }
}
