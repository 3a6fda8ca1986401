import 'server-only';
import type { ToolRateLimiter } from '@toolgate/engine/shells';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { type AppConfig, getConfig } from '@/lib/config';
import { createToolRateLimiter } from './rate-limiter';

/** Whose budget a webhook event spends: the requester's, and the client address's. */
type WebhookBudget = 'user' | 'address';

const settingByBudget = {
  user: 'TOOLGATE_WEBHOOK_USER_LIMIT',
  address: 'TOOLGATE_WEBHOOK_ADDRESS_LIMIT',
} as const satisfies Record<WebhookBudget, keyof AppConfig>;

const globalForBudgets = globalThis as typeof globalThis & {
  __toolgateWebhookBudgets?: Partial<
    Record<WebhookBudget, { shared: ToolRateLimiter; local: ToolRateLimiter }>
  >;
};

/** Spends one unit; false once it is spent. While Redis cannot count, this instance counts alone. */
async function spend(budget: WebhookBudget, key: string): Promise<boolean> {
  const config = getConfig();
  const setting = config[settingByBudget[budget]];
  if (setting === undefined) return true;
  globalForBudgets.__toolgateWebhookBudgets ??= {};
  const limiters = globalForBudgets.__toolgateWebhookBudgets;
  if (limiters[budget] === undefined) {
    const shared = createToolRateLimiter(setting, config.REDIS_URL, `toolgate:webhook:${budget}`);
    limiters[budget] = {
      shared,
      local: config.REDIS_URL === undefined ? shared : createToolRateLimiter(setting),
    };
  }
  const { shared, local } = limiters[budget];
  try {
    try {
      await shared.consume(key);
    } catch (error) {
      if (error instanceof RateLimiterRes || shared === local) throw error;
      await local.consume(key);
    }
    return true;
  } catch (error) {
    if (error instanceof RateLimiterRes) return false;
    throw error;
  }
}

/**
 * Spends one queued webhook event of the requester's budget (`TOOLGATE_WEBHOOK_USER_LIMIT`)
 * and of the client address's (`TOOLGATE_WEBHOOK_ADDRESS_LIMIT`, when the event comes from a
 * request). Returns the budget that is spent, or undefined to queue the event.
 */
export async function spendWebhookBudget({
  userId,
  address,
}: {
  userId: string;
  address?: string;
}): Promise<WebhookBudget | undefined> {
  if (!(await spend('user', userId))) return 'user';
  if (address !== undefined && !(await spend('address', address))) return 'address';
  return undefined;
}
