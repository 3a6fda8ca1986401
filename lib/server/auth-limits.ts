import 'server-only';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { type AppConfig, getConfig } from '@/lib/config';
import { getRedisClient } from '@/lib/stores';
import { ensureRedisReady } from '@/lib/stores/redis-client';

/** The auth budgets: attempts per client address, failures per account, verification mails per email. */
export type AuthLimit = 'address' | 'failures' | 'mail';

type Limiter = {
  consume: (key: string) => Promise<RateLimiterRes>;
  reward: (key: string) => Promise<unknown>;
};

const settingByLimit = {
  address: 'TOOLGATE_SIGNIN_RATE_LIMIT',
  failures: 'TOOLGATE_SIGNIN_FAILURE_LIMIT',
  mail: 'TOOLGATE_VERIFICATION_MAIL_LIMIT',
} as const satisfies Record<AuthLimit, keyof AppConfig>;

const messageByLimit: Record<AuthLimit, string> = {
  address: 'Too many sign-in attempts from this address; try again later',
  failures: 'Too many failed sign-ins for this account; try again later',
  mail: 'Too many sign-ups or verification mails for this email; try again later',
};

// On globalThis for the same reason as the other limiters: one budget per process, not per module copy.
const globalForLimits = globalThis as typeof globalThis & {
  __toolgateAuthLimiters?: Partial<Record<AuthLimit, Limiter>>;
};

function createLimiter(limit: AuthLimit, config: AppConfig): Limiter {
  const { points, windowMs } = config[settingByLimit[limit]];
  const keyPrefix = `toolgate:auth:${limit}`;
  // Redis when configured, so every instance spends one budget.
  if (config.REDIS_URL === undefined) {
    return new RateLimiterMemory({ keyPrefix, points, duration: windowMs / 1000 });
  }
  const client = getRedisClient(config.REDIS_URL);
  const limiter = new RateLimiterRedis({
    storeClient: client,
    useRedisPackage: true,
    rejectIfRedisNotReady: true,
    keyPrefix,
    points,
    duration: Math.max(1, Math.ceil(windowMs / 1000)),
  });
  return {
    consume: async (key) => {
      await ensureRedisReady(client);
      return limiter.consume(key);
    },
    reward: async (key) => {
      await ensureRedisReady(client);
      return limiter.reward(key);
    },
  };
}

function limiterOf(limit: AuthLimit): Limiter {
  globalForLimits.__toolgateAuthLimiters ??= {};
  const limiters = globalForLimits.__toolgateAuthLimiters;
  limiters[limit] ??= createLimiter(limit, getConfig());
  return limiters[limit];
}

/**
 * Spends one unit of `limit` for `key`: undefined to go on, or the response to send —
 * 429 with `Retry-After` once the budget is spent, 503 when the budget cannot be counted
 * (Redis down: fail closed).
 */
export async function spendAuthLimit(limit: AuthLimit, key: string): Promise<Response | undefined> {
  try {
    await limiterOf(limit).consume(key);
    return undefined;
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) {
      return Response.json(
        { error: 'Rate limits are unavailable right now; try again shortly' },
        { status: 503 },
      );
    }
    const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
    return Response.json(
      { error: messageByLimit[limit] },
      { status: 429, headers: { 'Retry-After': String(seconds) } },
    );
  }
}

/** Gives back the unit `spendAuthLimit` took for `key` (a sign-in that succeeded is no failure). */
export async function refundAuthLimit(limit: AuthLimit, key: string): Promise<void> {
  await limiterOf(limit)
    .reward(key)
    .catch(() => undefined);
}
