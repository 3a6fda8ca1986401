import 'server-only';
import type { ToolRateLimiter } from '@toolgate/engine/shells';
import { type AppConfig, getConfig } from '@/lib/config';
import { addressBudgetKey, clientAddressOf } from '@/lib/http/client-address';
import { createToolRateLimiter, spendOrRefuse } from './rate-limiter';

/** The per-client limits: new guest sessions (on by default), and chat turns (off unless set). */
export type ClientLimit = 'guest' | 'turn';

const settingByLimit = {
  guest: 'TOOLGATE_GUEST_RATE_LIMIT',
  turn: 'TOOLGATE_TURN_RATE_LIMIT',
} as const satisfies Record<ClientLimit, keyof AppConfig>;

const globalForLimits = globalThis as typeof globalThis & {
  __toolgateClientLimiters?: Partial<Record<ClientLimit, ToolRateLimiter>>;
};

/**
 * Spends one unit of `limit` for the request's client address (`clientAddressOf`). Returns a
 * 429 response with `Retry-After` once the budget is spent, or undefined to go on (always
 * for the turn limit when the operator left it unset).
 */
export async function checkClientLimit(request: Request, limit: ClientLimit): Promise<Response | undefined> {
  const config = getConfig();
  const setting = config[settingByLimit[limit]];
  if (setting === undefined) return undefined;
  globalForLimits.__toolgateClientLimiters ??= {};
  const limiters = globalForLimits.__toolgateClientLimiters;
  limiters[limit] ??= createToolRateLimiter(setting, config.REDIS_URL, `toolgate:client:${limit}`);
  return spendOrRefuse(
    limiters[limit],
    addressBudgetKey(clientAddressOf(request, { trustProxy: config.TOOLGATE_TRUST_PROXY })),
    limit === 'guest'
      ? 'Too many new sessions from this address; try again later'
      : 'Too many messages; slow down',
  );
}
