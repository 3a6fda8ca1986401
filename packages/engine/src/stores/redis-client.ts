import { createClient, type RedisClientType } from 'redis';
import { StoreUnavailableError } from './store-unavailable-error';

/** The node-redis v6 client type the Redis stores take (RESP3, no extra modules). */
export type RedisClient = RedisClientType;

/** How long a store waits for a (re)connecting client before failing closed. */
export const DEFAULT_READY_TIMEOUT_MS = 1_000;

const connectTimeoutMs = 2_000;
const commandTimeoutMs = 2_000;
const maxReconnectDelayMs = 2_000;

/*
 * Keyed on globalThis, not a module variable: Next.js loads route handlers and
 * server actions as separate module instances, and they must share one
 * connection (and one view of pending approvals).
 */
const globalForRedis = globalThis as typeof globalThis & {
  __toolgateRedisClients?: Map<string, RedisClient>;
};

/**
 * The process-wide client for `url`, created on first use and connected lazily
 * (the stores connect it on their first command).
 *
 * Tuned to fail fast so callers can fail closed: the offline queue is off (a
 * command while disconnected rejects at once instead of waiting for a
 * reconnect), connects and commands time out after 2 s, and reconnects back off
 * up to 2 s forever. An `'error'` listener is attached, because node-redis
 * emits every connection error and an unhandled `'error'` would crash the process.
 */
export function getRedisClient(url: string): RedisClient {
  globalForRedis.__toolgateRedisClients ??= new Map();
  const clients = globalForRedis.__toolgateRedisClients;
  let client = clients.get(url);
  if (client === undefined) {
    client = createClient({
      url,
      disableOfflineQueue: true,
      commandOptions: { timeout: commandTimeoutMs },
      socket: {
        connectTimeout: connectTimeoutMs,
        reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, maxReconnectDelayMs),
      },
    });
    attachErrorLogger(client, url);
    clients.set(url, client);
  }
  return client;
}

/**
 * Logs connection errors once per outage instead of once per retry, and keeps
 * them from being thrown as unhandled `'error'` events.
 */
export function attachErrorLogger(client: RedisClient, label: string): void {
  let reported = false;
  client.on('ready', () => {
    reported = false;
  });
  client.on('error', (error: unknown) => {
    if (reported) return;
    reported = true;
    console.error(`[toolgate] Redis ${redactUrl(label)} unavailable:`, (error as Error)?.message ?? error);
  });
}

// One pending wait per client, however many callers ask: a listener per caller
// would pile up on the client while Redis is down.
const readyWaits = new WeakMap<RedisClient, Promise<void>>();

/**
 * Resolves once `client` can take commands, connecting it if nobody has yet.
 * Rejects with {@link StoreUnavailableError} after `timeoutMs` or when the
 * connection attempt gives up, so no caller waits on a dead Redis for long.
 */
export async function ensureRedisReady(
  client: RedisClient,
  timeoutMs: number = DEFAULT_READY_TIMEOUT_MS,
): Promise<void> {
  if (client.isReady) return;
  let wait = readyWaits.get(client);
  if (wait === undefined) {
    wait = waitForReady(client);
    readyWaits.set(client, wait);
    const forget = () => {
      if (readyWaits.get(client) === wait) readyWaits.delete(client);
    };
    wait.then(forget, forget);
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      wait,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new StoreUnavailableError(`Redis did not become ready within ${timeoutMs} ms`)),
          timeoutMs,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function waitForReady(client: RedisClient): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onReady = () => {
      client.off('terminated', onTerminated);
      resolve();
    };
    // Emitted when the reconnect strategy gives up: this attempt will never succeed.
    const onTerminated = (cause: unknown) => {
      client.off('ready', onReady);
      reject(new StoreUnavailableError('Redis connection failed', { cause }));
    };
    client.once('ready', onReady);
    client.once('terminated', onTerminated);
    if (!client.isOpen) {
      // The outcome is observed through the events above (and the 'error' listener).
      client.connect().catch((error: unknown) => {
        client.off('ready', onReady);
        client.off('terminated', onTerminated);
        reject(new StoreUnavailableError('Redis connection failed', { cause: error }));
      });
    }
  });
}

/** Wraps any Redis failure in {@link StoreUnavailableError}, keeping the original as `cause`. */
export function toStoreUnavailable(error: unknown, action: string): StoreUnavailableError {
  if (error instanceof StoreUnavailableError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new StoreUnavailableError(`Redis unavailable while ${action}: ${detail}`, { cause: error });
}

function redactUrl(url: string): string {
  // Never log a password that came in the URL.
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
