import 'server-only';
import type { ToolRateLimiter } from '@toolgate/engine/shells';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { getConfig } from '@/lib/config';
import type { Db } from '@/lib/db';
import { createToolRateLimiter } from './rate-limiter';

const globalForLimits = globalThis as typeof globalThis & {
  __toolgateUserTurnLimiter?: { shared: ToolRateLimiter; local: ToolRateLimiter };
};

/**
 * Spends one chat turn (`POST /api/chat`, `POST /api/chat/complete`) of the user's budget
 * (`TOOLGATE_USER_TURN_RATE_LIMIT`, on by default). Returns a 429 with `Retry-After` once it
 * is spent, or undefined to go on. Keyed by the session's user, so it holds behind any
 * proxy and across chats. With `REDIS_URL` every instance spends one budget; while Redis
 * cannot count, each instance counts on its own in memory: the limit stays on, and chat
 * (which does not need Redis to answer) stays up.
 */
export async function checkUserTurnLimit(userId: string): Promise<Response | undefined> {
  const config = getConfig();
  const setting = config.TOOLGATE_USER_TURN_RATE_LIMIT;
  if (setting === undefined) return undefined;
  if (globalForLimits.__toolgateUserTurnLimiter === undefined) {
    const shared = createToolRateLimiter(setting, config.REDIS_URL, 'toolgate:user:turn');
    const local = config.REDIS_URL === undefined ? shared : createToolRateLimiter(setting);
    globalForLimits.__toolgateUserTurnLimiter = { shared, local };
  }
  const { shared, local } = globalForLimits.__toolgateUserTurnLimiter;
  try {
    try {
      await shared.consume(userId);
    } catch (error) {
      if (error instanceof RateLimiterRes || shared === local) throw error;
      console.error('[toolgate] the shared turn limit cannot count; counting on this instance:', error);
      await local.consume(userId);
    }
    return undefined;
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
    return Response.json(
      {
        error: `Too many messages: at most ${setting.points} per ${setting.windowMs / 1000} s; try again in ${seconds} s`,
      },
      { status: 429, headers: { 'Retry-After': String(seconds) } },
    );
  }
}

/**
 * A limiter for the rate-limit shell that refuses a call needing approval while the user
 * already has `maxPending` approvals waiting (`TOOLGATE_MAX_PENDING_APPROVALS`), so one
 * user cannot pile up cards (and rows) without bound. A refusal waits for the earliest
 * waiting card's deadline. It counts the rows, so it holds across chats and instances;
 * calls racing past the count at the same moment may add a few over the cap.
 */
export function createPendingApprovalLimiter(db: Db, maxPending: number): ToolRateLimiter {
  return {
    consume: async (ownerId) => {
      const now = Date.now();
      const pending = await db
        .selectFrom('approvals')
        .select('expires_at')
        .where('owner_id', '=', ownerId)
        .where('status', '=', 'pending')
        .where('expires_at', '>', now)
        .orderBy('expires_at')
        .limit(maxPending)
        .execute();
      if (pending.length < maxPending) return;
      // Rejected with what rate-limiter-flexible rejects with, so the shell reads it as "limit".
      throw new RateLimiterRes(0, Number(pending[0].expires_at) - now);
    },
  };
}
