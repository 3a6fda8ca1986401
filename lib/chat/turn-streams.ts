import 'server-only';
import { ensureRedisReady, getRedisClient, type RedisClient, redisChannels } from '@toolgate/engine/redis';
import {
  createResumableStreamContext,
  type Publisher,
  type ResumableStreamContext,
  type Subscriber,
} from 'resumable-stream/generic';
import { getConfig } from '@/lib/config';
import { followed } from './followed';

/*
 * Where a running turn's stream can be followed from: Redis when `REDIS_URL` is set
 * (a reader on any instance), otherwise an in-process publisher/subscriber pair
 * behind the same `resumable-stream` interface. See
 * docs/decisions/2026-12-01-where-approvals-wait-now.md.
 */

const globalForStreams = globalThis as typeof globalThis & {
  __toolgateStreamContext?: ResumableStreamContext;
  __toolgateRunningTurns?: Map<string, RunningTurn>;
};

/** A turn running in this process. */
export type RunningTurn = {
  streamId: string;
  /** Stops the model (the Stop button); approvals are settled before this is called. */
  abort: AbortController;
  /** Settles when the turn has ended and its message is saved. */
  done: Promise<void>;
  /** Counts a reader of its stream (absent: the turn never parks). */
  follow?: () => () => void;
};

/** The turns running in this process, by chat id (one per chat). */
export function runningTurns(): Map<string, RunningTurn> {
  globalForStreams.__toolgateRunningTurns ??= new Map();
  return globalForStreams.__toolgateRunningTurns;
}

/**
 * `stream` (of the turn `streamId` of the chat), counted as a reader while it is read,
 * so the turn stays live while somebody follows it. A stream of a turn running
 * elsewhere is returned as it is: only the instance running a turn can count.
 */
export function followTurn<T>(
  chatId: string,
  streamId: string,
  stream: ReadableStream<T>,
): ReadableStream<T> {
  const turn = runningTurns().get(chatId);
  if (turn?.follow === undefined || turn.streamId !== streamId) return stream;
  return followed(stream, turn.follow);
}

/** The process-wide resumable stream context. */
export function getStreamContext(): ResumableStreamContext {
  let context = globalForStreams.__toolgateStreamContext;
  if (context === undefined) {
    const { REDIS_URL } = getConfig();
    const pair = REDIS_URL ? redisPair(getRedisClient(REDIS_URL)) : createInProcessPubSub();
    // The server stays up, so nothing needs to be kept alive for the producer (waitUntil: null).
    context = createResumableStreamContext({
      waitUntil: null,
      keyPrefix: redisChannels.resumableStreams,
      ...pair,
    });
    globalForStreams.__toolgateStreamContext = context;
  }
  return context;
}

function redisPair(client: RedisClient): { publisher: Publisher; subscriber: Subscriber } {
  let subscriberClient: RedisClient | undefined;
  const subscriberReady = async () => {
    subscriberClient ??= client.duplicate();
    await ensureRedisReady(subscriberClient);
    return subscriberClient;
  };
  return {
    publisher: {
      connect: () => ensureRedisReady(client),
      publish: (channel, message) => client.publish(channel, message),
      set: (key, value, options) =>
        options?.EX === undefined
          ? client.set(key, value)
          : client.sendCommand(['SET', key, value, 'EX', String(options.EX)]),
      get: (key) => client.get(key) as Promise<string | null>,
      incr: (key) => client.incr(key),
    },
    subscriber: {
      connect: () => subscriberReady(),
      subscribe: async (channel, callback) => {
        await (await subscriberReady()).subscribe(channel, (message) => callback(String(message)));
      },
      unsubscribe: async (channel) => (await subscriberReady()).unsubscribe(channel),
    },
  };
}

/**
 * A publisher/subscriber pair inside this process: keys in a Map, channels as
 * callback sets. Delivery is asynchronous, as over Redis. Keys expire lazily.
 */
export function createInProcessPubSub(now: () => number = Date.now): {
  publisher: Publisher;
  subscriber: Subscriber;
} {
  const values = new Map<string, { value: string; expiresAt: number }>();
  const callbacksByChannel = new Map<string, Set<(message: string) => void>>();
  const read = (key: string) => {
    const entry = values.get(key);
    if (entry !== undefined && entry.expiresAt <= now()) values.delete(key);
    return values.get(key);
  };
  // Finished streams are kept only as a "done" marker; sweep expired ones so they do not pile up.
  const sweep = () => {
    for (const [key, entry] of values) if (entry.expiresAt <= now()) values.delete(key);
  };
  const sweepTimer = setInterval(sweep, 60_000);
  sweepTimer.unref?.();
  return {
    publisher: {
      connect: async () => undefined,
      publish: async (channel, message) => {
        const callbacks = [...(callbacksByChannel.get(channel) ?? [])];
        queueMicrotask(() => {
          for (const callback of callbacks) callback(message);
        });
        return callbacks.length;
      },
      set: async (key, value, options) => {
        // Finished streams only need to be told apart for a while; an hour is plenty.
        const seconds = Math.min(options?.EX ?? 3600, 3600);
        values.set(key, { value, expiresAt: now() + seconds * 1000 });
        return 'OK';
      },
      get: async (key) => read(key)?.value ?? null,
      incr: async (key) => {
        const entry = read(key);
        const next = entry === undefined ? 1 : Number(entry.value) + 1;
        if (!Number.isInteger(next)) throw new Error('ERR value is not an integer or out of range');
        values.set(key, { value: String(next), expiresAt: entry?.expiresAt ?? now() + 3_600_000 });
        return next;
      },
    },
    subscriber: {
      connect: async () => undefined,
      subscribe: async (channel, callback) => {
        let callbacks = callbacksByChannel.get(channel);
        if (callbacks === undefined) {
          callbacks = new Set();
          callbacksByChannel.set(channel, callbacks);
        }
        callbacks.add(callback);
      },
      unsubscribe: async (channel) => {
        callbacksByChannel.delete(channel);
      },
    },
  };
}
