import 'server-only';
import { ensureRedisReady, getRedisClient } from '@toolgate/engine/redis';
import type { ToolRateLimiter } from '@toolgate/engine/shells';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { type AppConfig, getConfig } from '@/lib/config';

/*
 * On globalThis for the same reason as the stores (lib/server/stores.ts): route
 * handlers and server actions are separate module instances in Next.js, and a
 * budget split between them would be no budget.
 */
const globalForRateLimiter = globalThis as typeof globalThis & { __toolgateRateLimiter?: ToolRateLimiter };

/**
 * The process-wide tool-call limiter from `AGENT_TOOL_RATE_LIMIT`, or undefined
 * when that is unset (no rate-limit shell then). Redis when `REDIS_URL` is set,
 * so every instance spends one budget; memory otherwise (one budget per process).
 */
export function getToolRateLimiter(): ToolRateLimiter | undefined {
  const config = getConfig();
  if (config.AGENT_TOOL_RATE_LIMIT === undefined) return undefined;
  globalForRateLimiter.__toolgateRateLimiter ??= createToolRateLimiter(
    config.AGENT_TOOL_RATE_LIMIT,
    config.REDIS_URL,
  );
  return globalForRateLimiter.__toolgateRateLimiter;
}

/** A budget that can also give a unit back (a sign-in that succeeded was no failure). */
export type RefundableRateLimiter = ToolRateLimiter & { reward: (key: string) => Promise<unknown> };

/**
 * A limiter of `points` calls per `windowMs` and key. rate-limiter-flexible counts
 * in seconds; Redis keys expire in whole seconds, so a Redis window is rounded up
 * to at least one second (a zero-second window would never expire).
 */
export function createToolRateLimiter(
  { points, windowMs }: NonNullable<AppConfig['AGENT_TOOL_RATE_LIMIT']>,
  redisUrl?: string,
  keyPrefix = 'toolgate:rate',
): RefundableRateLimiter {
  if (redisUrl === undefined) {
    return new RateLimiterMemory({ keyPrefix, points, duration: windowMs / 1000 });
  }
  const client = getRedisClient(redisUrl);
  const limiter = new RateLimiterRedis({
    storeClient: client,
    // node-redis v4+ API (eval with { keys, arguments }, pTTL); v6 is not detected by class name.
    useRedisPackage: true,
    // A disconnected client fails at once instead of hanging; the shell then refuses the call.
    rejectIfRedisNotReady: true,
    keyPrefix,
    points,
    duration: Math.max(1, Math.ceil(windowMs / 1000)),
  });
  return {
    consume: async (key, consumed = 1) => {
      // The shared client connects lazily, on its first user's command.
      await ensureRedisReady(client);
      return limiter.consume(key, consumed);
    },
    reward: async (key) => {
      await ensureRedisReady(client);
      return limiter.reward(key);
    },
  };
}

/**
 * Spends one unit of `limiter` for `key`: undefined to go on, 429 `{ error: tooMany }` with
 * `Retry-After` once the budget is spent, 503 when it cannot be counted (Redis down: fail closed).
 */
export async function spendOrRefuse(
  limiter: ToolRateLimiter,
  key: string,
  tooMany: string,
): Promise<Response | undefined> {
  try {
    await limiter.consume(key);
    return undefined;
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) {
      return Response.json(
        { error: 'Rate limits are unavailable right now; try again shortly' },
        { status: 503 },
      );
    }
    const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
    return Response.json({ error: tooMany }, { status: 429, headers: { 'Retry-After': String(seconds) } });
  }
}
