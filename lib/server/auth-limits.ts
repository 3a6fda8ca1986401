import 'server-only';
import { type AppConfig, getConfig } from '@/lib/config';
import { createToolRateLimiter, type RefundableRateLimiter, spendOrRefuse } from './rate-limiter';

/** The auth budgets: attempts per client address, failures per account, verification mails per email. */
export type AuthLimit = 'address' | 'failures' | 'mail';

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
  __toolgateAuthLimiters?: Partial<Record<AuthLimit, RefundableRateLimiter>>;
};

function limiterOf(limit: AuthLimit): RefundableRateLimiter {
  globalForLimits.__toolgateAuthLimiters ??= {};
  const limiters = globalForLimits.__toolgateAuthLimiters;
  const config = getConfig();
  // Redis when configured, so every instance spends one budget.
  limiters[limit] ??= createToolRateLimiter(
    config[settingByLimit[limit]],
    config.REDIS_URL,
    `toolgate:auth:${limit}`,
  );
  return limiters[limit];
}

/**
 * Spends one unit of `limit` for `key`: undefined to go on, or the response to send —
 * 429 with `Retry-After` once the budget is spent, 503 when the budget cannot be counted
 * (Redis down: fail closed).
 */
export function spendAuthLimit(limit: AuthLimit, key: string): Promise<Response | undefined> {
  return spendOrRefuse(limiterOf(limit), key, messageByLimit[limit]);
}

/** Gives back the unit `spendAuthLimit` took for `key` (a sign-in that succeeded is no failure). */
export async function refundAuthLimit(limit: AuthLimit, key: string): Promise<void> {
  await limiterOf(limit)
    .reward(key)
    .catch(() => undefined);
}
