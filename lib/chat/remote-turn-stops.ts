import 'server-only';
import { getConfig } from '@/lib/config';
import { type Db, getChatStream } from '@/lib/db';
import { listenOnBus, publishOnBus, tellEveryInstance } from '@/lib/server/event-bus';
import { outsideRequest } from '@/lib/server/outside-request';
import { runningTurns } from './turn-streams';

const globalForStops = globalThis as typeof globalThis & { __toolgateStopListener?: Promise<void> };

/**
 * With Redis, listens (once per process) on the event bus for Stop pressed on another
 * instance and stops the chat's turn if it runs here. Without Redis there is only this
 * process. A failure to subscribe is logged by the bus; Stop then still settles the
 * approvals (through the registry), only the model runs to its end.
 */
export function listenForRemoteStops(): void {
  const { REDIS_URL } = getConfig();
  if (!REDIS_URL || globalForStops.__toolgateStopListener !== undefined) return;
  // The subscription outlives this request: it is made in the server's own context.
  globalForStops.__toolgateStopListener = outsideRequest(async () => {
    await listenOnBus('stop', (chatId) => {
      if (typeof chatId === 'string') runningTurns().get(chatId)?.abort.abort();
    });
  }).catch((error: unknown) => {
    globalForStops.__toolgateStopListener = undefined;
    console.error('[toolgate] could not listen for Stop from other instances:', error);
  });
}

/** Tells every instance that the chat's turn has saved its end (its stream record is cleared). */
export function publishTurnEnded(chatId: string): void {
  publishOnBus('turn-ended', chatId);
}

/**
 * Asks the instance running the chat's turn, if another one does, to stop it (the event
 * bus), and waits, at most `waitMs`, for that turn to save its end: a notification, not a
 * poll. Returns whether a turn was running and the request left.
 */
export async function stopRemoteTurn(db: Db, chatId: string, waitMs: number): Promise<boolean> {
  const { REDIS_URL } = getConfig();
  if (!REDIS_URL) return false;
  let ended!: () => void;
  const turnEnded = new Promise<void>((resolve) => {
    ended = resolve;
  });
  // Listening before the record is read: an end published in between is not missed.
  const stopListening = await listenOnBus('turn-ended', (payload) => {
    if (payload === chatId) ended();
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    if ((await getChatStream(db, chatId)) === undefined) return false;
    try {
      await tellEveryInstance('stop', chatId);
    } catch {
      return false;
    }
    // The turn may have ended between the read and the request.
    if ((await getChatStream(db, chatId)) === undefined) return true;
    await Promise.race([
      turnEnded,
      new Promise((resolve) => {
        timer = setTimeout(resolve, waitMs);
      }),
    ]);
    return true;
  } finally {
    clearTimeout(timer);
    stopListening();
  }
}
