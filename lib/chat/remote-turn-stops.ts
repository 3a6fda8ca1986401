import 'server-only';
import { getConfig } from '@/lib/config';
import { type Db, getChatStream } from '@/lib/db';
import { outsideRequest } from '@/lib/server/outside-request';
import { getRedisClient, type RedisClient } from '@/lib/stores';
import { ensureRedisReady } from '@/lib/stores/redis-client';
import { runningTurns } from './turn-streams';

/** The channel on which Stop reaches the instance running a chat's turn; messages are chat ids. */
const stopChannel = 'toolgate:turn-stop';

const globalForStops = globalThis as typeof globalThis & { __toolgateStopListener?: Promise<void> };

/**
 * With Redis, listens (once per process) for Stop pressed on another instance and
 * stops the chat's turn if it runs here. Without Redis there is only this process.
 * A failure to subscribe is logged and retried on the next turn; Stop then still
 * settles the approvals (through the registry), only the model runs to its end.
 */
export function listenForRemoteStops(): void {
  const { REDIS_URL } = getConfig();
  if (!REDIS_URL || globalForStops.__toolgateStopListener !== undefined) return;
  // The subscription outlives this request: it is made in the server's own context.
  globalForStops.__toolgateStopListener = outsideRequest(async () => {
    const subscriber: RedisClient = getRedisClient(REDIS_URL).duplicate();
    subscriber.on('error', () => undefined);
    await ensureRedisReady(subscriber, 5_000);
    await subscriber.subscribe(stopChannel, (chatId) => runningTurns().get(String(chatId))?.abort.abort());
  }).catch((error: unknown) => {
    globalForStops.__toolgateStopListener = undefined;
    console.error('[toolgate] could not listen for Stop from other instances:', error);
  });
}

/**
 * Asks the instance running the chat's turn, if another one does, to stop it
 * (Redis pub/sub). Returns whether any instance heard it.
 */
export async function askRemoteStop(db: Db, chatId: string): Promise<boolean> {
  const { REDIS_URL } = getConfig();
  if (!REDIS_URL || (await getChatStream(db, chatId)) === undefined) return false;
  try {
    const client = getRedisClient(REDIS_URL);
    await ensureRedisReady(client);
    return (await client.publish(stopChannel, chatId)) > 0;
  } catch {
    return false;
  }
}

/** Waits, at most `waitMs`, until the chat's running turn has saved its end (its stream record is cleared). */
export async function waitForTurnEnd(db: Db, chatId: string, waitMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline && (await getChatStream(db, chatId)) !== undefined) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
