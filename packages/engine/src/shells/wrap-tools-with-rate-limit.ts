import type { ToolSet } from 'ai';
import { wrapExecute } from './wrap-execute';

/**
 * What a tool returns instead of running when the chat is over its tool-call
 * budget. Like a denial it is an ordinary result, not an error: an error invites
 * the model to retry at once, which is the one thing that cannot help here.
 */
export type ToolRateLimited = {
  rateLimited: true;
  /** `limit`: the budget is spent; `unavailable`: the limiter could not be asked, so nothing ran. */
  reason: 'limit' | 'unavailable';
  /** How long until a call may succeed again. */
  retryAfterMs: number;
  message: string;
};

/** Tells a {@link ToolRateLimited} apart from a tool's own output. */
export function isToolRateLimited(value: unknown): value is ToolRateLimited {
  if (typeof value !== 'object' || value === null) return false;
  const { rateLimited, retryAfterMs, message } = value as Partial<ToolRateLimited>;
  return rateLimited === true && typeof retryAfterMs === 'number' && typeof message === 'string';
}

/**
 * The part of a rate-limiter-flexible limiter (`RateLimiterMemory`,
 * `RateLimiterRedis`) the shell uses: `consume` resolves while there is budget,
 * rejects with a `RateLimiterRes` (it has `msBeforeNext`) when there is none, and
 * rejects with an `Error` when the store failed.
 */
export type ToolRateLimiter = {
  consume: (key: string, points?: number) => Promise<unknown>;
};

/** Options of {@link wrapToolsWithRateLimit}. */
export type RateLimitShellOptions = {
  limiter: ToolRateLimiter;
  /** Whose budget a call spends, usually the chat id. */
  key: string;
  /** Names of the tools that spend the budget. Default: every tool in the table. */
  tools?: Iterable<string>;
};

/** How long the model is told to wait when the limiter itself failed. */
export const unavailableRetryAfterMs = 5_000;

/**
 * Gives the chosen tools a shared call budget per `key`: each call spends one
 * point, and a call over budget returns a {@link ToolRateLimited} without running.
 *
 * Fails closed: when the limiter cannot answer (Redis down), the call is refused
 * the same way (reason `unavailable`) and the failure is logged; a tool never
 * runs unmetered. Put it outside approval so a flood of calls cannot flood a
 * person with approval cards. Only `execute` is replaced.
 */
export function wrapToolsWithRateLimit<TOOLS extends ToolSet>(
  table: TOOLS,
  { limiter, key, tools = Object.keys(table) }: RateLimitShellOptions,
): TOOLS {
  return wrapExecute(table, tools, (execute, toolName) => async (input, options) => {
    return (await spendOrRefuse(limiter, key, toolName)) ?? execute(input, options);
  });
}

/**
 * Spends one point of `key`'s budget for a call of `toolName`: undefined when there was one,
 * else the {@link ToolRateLimited} the call returns instead of running (fails closed, as the shell).
 */
export async function spendOrRefuse(
  limiter: ToolRateLimiter,
  key: string,
  toolName: string,
): Promise<ToolRateLimited | undefined> {
  try {
    await limiter.consume(key, 1);
    return undefined;
  } catch (rejection) {
    if (isLimiterRefusal(rejection)) return refusal('limit', toolName, rejection.msBeforeNext);
    console.error(`[toolgate] rate limiter unavailable; refusing ${toolName}:`, rejection);
    return refusal('unavailable', toolName, unavailableRetryAfterMs);
  }
}

/** rate-limiter-flexible rejects with a `RateLimiterRes` (not an Error) when the budget is spent. */
function isLimiterRefusal(value: unknown): value is { msBeforeNext: number } {
  return (
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof Error) &&
    typeof (value as { msBeforeNext?: unknown }).msBeforeNext === 'number'
  );
}

function refusal(reason: ToolRateLimited['reason'], toolName: string, retryAfterMs: number): ToolRateLimited {
  const wait = Math.max(0, Math.ceil(retryAfterMs));
  const seconds = Math.max(1, Math.ceil(wait / 1000));
  const message =
    reason === 'limit'
      ? `Too many tool calls in this chat: this ${toolName} call was not carried out. Do not retry it now; tell the user to wait about ${seconds} s and then ask again.`
      : `Tool calls cannot be metered right now, so this ${toolName} call was not carried out. Do not retry it now; tell the user to try again in a little while.`;
  return { rateLimited: true, reason, retryAfterMs: wait, message };
}
