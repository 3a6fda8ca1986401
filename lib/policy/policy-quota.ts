import 'server-only';
import { randomUUID } from 'node:crypto';
import type { PolicyLimit } from '@toolgate/engine/policy';
import { ensureRedisReady, getRedisClient, type RedisClient } from '@toolgate/engine/redis';
import { sql } from 'kysely';
import { getConfig } from '@/lib/config';
import type { Db } from '@/lib/db/engine';
import { engineOf } from '@/lib/db/engine';
import { writeTransaction } from '@/lib/db/write-transaction';

/** A quota's answer: the call fits (and, for `take`, is counted), or how long until one does. */
export type QuotaAnswer = { ok: true } | { ok: false; retryAfterMs: number };

/**
 * Counts executed calls per quota key in a sliding window, shared by every instance: Redis
 * (one Lua script per call) when `REDIS_URL` is set, the database otherwise (a write
 * transaction holding a per-key lock). Both are exact under concurrency: of two calls racing
 * for the last place, one is counted and the other is refused.
 */
export type QuotaCounter = {
  /** Whether a call under `key` fits now; counts nothing (asked before a card is shown). */
  peek: (key: string, limit: PolicyLimit) => Promise<QuotaAnswer>;
  /** Counts a call under `key` if it fits, atomically (asked right before the call runs). */
  take: (key: string, limit: PolicyLimit) => Promise<QuotaAnswer>;
};

/** The key a rule's quota counts under: the rule, and the user, the chat or nobody. */
export function quotaKey(
  { rule, limit }: { rule: string; limit: PolicyLimit },
  { userId, chatId }: { userId: string; chatId: string },
): string {
  const subject = limit.per === 'user' ? `user:${userId}` : limit.per === 'chat' ? `chat:${chatId}` : 'all';
  return `${rule}|${limit.max}/${limit.windowMs}|${subject}`;
}

// KEYS[1] the set; ARGV: now, window, max, member ('' to only look). Returns 0 when it fits,
// else the milliseconds until the call that frees a place leaves the window.
const quotaScript = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local max = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count < max then
  if ARGV[4] ~= '' then
    redis.call('ZADD', KEYS[1], now, ARGV[4])
    redis.call('PEXPIRE', KEYS[1], window)
  end
  return 0
end
local freeing = redis.call('ZRANGE', KEYS[1], count - max, count - max, 'WITHSCORES')
return math.max(1, tonumber(freeing[2]) + window - now)
`;

/** A quota counter on Redis: a sorted set of call times per key, trimmed to the window. */
export function createRedisQuotaCounter({
  client,
  now = Date.now,
}: {
  client: RedisClient;
  now?: () => number;
}): QuotaCounter {
  const run = async (key: string, limit: PolicyLimit, member: string): Promise<QuotaAnswer> => {
    await ensureRedisReady(client);
    const waitMs = Number(
      await client.eval(quotaScript, {
        keys: [`toolgate:quota:${key}`],
        arguments: [String(now()), String(limit.windowMs), String(limit.max), member],
      }),
    );
    return waitMs === 0 ? { ok: true } : { ok: false, retryAfterMs: waitMs };
  };
  return {
    peek: (key, limit) => run(key, limit, ''),
    take: (key, limit) => run(key, limit, `${now()}:${randomUUID()}`),
  };
}

/** A quota counter on the app's database (`policy_quota_calls`), for deployments without Redis. */
export function createDatabaseQuotaCounter({
  db,
  now = Date.now,
}: {
  db: Db;
  now?: () => number;
}): QuotaCounter {
  const answer = async (
    transaction: Db,
    key: string,
    limit: PolicyLimit,
    at: number,
  ): Promise<QuotaAnswer> => {
    const rows = await transaction
      .selectFrom('policy_quota_calls')
      .select('called_at')
      .where('quota_key', '=', key)
      .where('called_at', '>', at - limit.windowMs)
      .orderBy('called_at', 'desc')
      .limit(limit.max)
      .execute();
    if (rows.length < limit.max) return { ok: true };
    // The oldest of the newest `max` calls frees the place when it leaves the window.
    const freeing = Number((rows.at(-1) as { called_at: number }).called_at);
    return { ok: false, retryAfterMs: Math.max(1, freeing + limit.windowMs - at) };
  };
  return {
    peek: async (key, limit) => answer(db, key, limit, now()),
    take: (key, limit) =>
      writeTransaction(db, async (transaction) => {
        // SQLite's write lock is taken by the transaction; Postgres locks the key.
        if (engineOf(transaction) === 'postgres')
          await sql`select pg_advisory_xact_lock(hashtext(${`toolgate.quota:${key}`}))`.execute(transaction);
        const at = now();
        const result = await answer(transaction, key, limit, at);
        if (!result.ok) return result;
        // Calls older than the longest window any quota may have are of no use to anyone.
        await transaction
          .deleteFrom('policy_quota_calls')
          .where('quota_key', '=', key)
          .where('called_at', '<=', at - limit.windowMs)
          .execute();
        await transaction
          .insertInto('policy_quota_calls')
          .values({ id: randomUUID(), quota_key: key, called_at: at })
          .execute();
        return result;
      }),
  };
}

const countersByDb = new WeakMap<Db, QuotaCounter>();

/** The process's quota counter: Redis when `REDIS_URL` is set, else `db`. */
export function getQuotaCounter(db: Db): QuotaCounter {
  let counter = countersByDb.get(db);
  if (counter === undefined) {
    const url = getConfig().REDIS_URL;
    counter = url
      ? createRedisQuotaCounter({ client: getRedisClient(url) })
      : createDatabaseQuotaCounter({ db });
    countersByDb.set(db, counter);
  }
  return counter;
}
