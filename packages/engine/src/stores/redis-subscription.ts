import { attachErrorLogger, ensureRedisReady, type RedisClient } from './redis-client';

/** One pub/sub channel a store listens on, over a connection of its own or a given one. */
export type RedisSubscription = {
  /** Subscribes once; later calls share the first. A failed attempt is forgotten, so the next call retries. */
  listen: () => Promise<void>;
  /** Unsubscribes, and closes the connection if this subscription opened it. */
  close: () => Promise<void>;
};

/**
 * Listens on `channel`. A connection in subscriber mode can run nothing else, so
 * unless `subscriber` is given, one is duplicated from `client` on first use.
 */
export function createRedisSubscription({
  client,
  subscriber,
  channel,
  onMessage,
  label,
}: {
  client: RedisClient;
  subscriber?: RedisClient;
  channel: string;
  onMessage: (message: string) => void;
  /** Names the connection in error logs. */
  label: string;
}): RedisSubscription {
  const ownsSubscriber = subscriber === undefined;
  let active = subscriber;
  let listening: Promise<void> | undefined;

  function listen(): Promise<void> {
    listening ??= (async () => {
      if (active === undefined) {
        active = client.duplicate();
        attachErrorLogger(active, label);
      }
      await ensureRedisReady(active);
      await active.subscribe(channel, onMessage);
    })();
    listening.catch(() => {
      listening = undefined;
    });
    return listening;
  }

  async function close(): Promise<void> {
    const current = active;
    listening = undefined;
    if (current === undefined) return;
    if (ownsSubscriber) {
      active = undefined;
      if (current.isOpen) await current.close().catch(() => current.destroy());
    } else if (current.isReady) {
      await current.unsubscribe(channel, onMessage).catch(() => {});
    }
  }

  return { listen, close };
}
