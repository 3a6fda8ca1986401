import 'server-only';
import { EventEmitter } from 'node:events';
import {
  createRedisSubscription,
  ensureRedisReady,
  getRedisClient,
  type RedisSubscription,
} from '@toolgate/engine/redis';
import { getConfig } from '@/lib/config';
import {
  type AccessRevoked,
  type EventBusTopic,
  encodeBusMessage,
  eventBusChannel,
  eventBusTopics,
  isAccessRevoked,
} from './event-bus-message';

type Bus = {
  emitter: EventEmitter;
  /** This process's id: its own messages come back over Redis and are skipped there. */
  origin: string;
  redis?: { subscription: RedisSubscription; publish: (message: string) => Promise<unknown> };
};

/*
 * Keyed on globalThis: route handlers and server actions load separate module
 * instances, and a decision made in one must reach a turn waiting in the other.
 */
const globalForBus = globalThis as typeof globalThis & { __toolgateApprovalEvents?: Bus };

function bus(): Bus {
  let current = globalForBus.__toolgateApprovalEvents;
  if (current !== undefined) return current;
  const emitter = new EventEmitter();
  // One listener per open event stream or waiting hand-over: not a leak.
  emitter.setMaxListeners(0);
  current = { emitter, origin: crypto.randomUUID() };
  const url = getConfig().REDIS_URL;
  if (url) {
    const client = getRedisClient(url);
    const origin = current.origin;
    current.redis = {
      subscription: createRedisSubscription({
        client,
        channel: eventBusChannel,
        label: 'approval events subscriber',
        onMessage: (message) => {
          let parsed: Record<string, unknown>;
          try {
            parsed = JSON.parse(message);
          } catch {
            return;
          }
          if (typeof parsed !== 'object' || parsed === null || parsed.origin === origin) return;
          for (const topic of eventBusTopics)
            if (parsed[topic] !== undefined) emitter.emit(topic, parsed[topic]);
        },
      }),
      // The shared client connects on first use: a publish may be the first.
      publish: async (message) => {
        await ensureRedisReady(client);
        return client.publish(eventBusChannel, message);
      },
    };
  }
  globalForBus.__toolgateApprovalEvents = current;
  return current;
}

/**
 * Tells every listener of `topic`, here at once and in other instances over Redis (the
 * same object reaches every listener here). Best effort: a lost message costs a fallback
 * (a hand-over's bound, a page's reload, a stream's bounded life), never a decision.
 */
export function publishOnBus(topic: EventBusTopic, payload: unknown): void {
  tellEveryInstance(topic, payload).catch((error: unknown) =>
    console.error(`[toolgate] could not publish on the event bus (${topic}):`, error),
  );
}

/**
 * The same, for a caller that must know the message left: resolves once Redis took it
 * (at once without Redis), rejects when it could not.
 */
export async function tellEveryInstance(topic: EventBusTopic, payload: unknown): Promise<void> {
  const current = bus();
  current.emitter.emit(topic, payload);
  await current.redis?.publish(encodeBusMessage(current.origin, topic, payload));
}

/**
 * Calls `listener` with every payload of `topic` (unchecked: the caller validates) until
 * the returned function is called. Resolves once listening has started everywhere (the
 * Redis subscription is up), so whatever the caller checks next cannot miss a message
 * published after it.
 */
export async function listenOnBus(
  topic: EventBusTopic,
  listener: (payload: unknown) => void,
): Promise<() => void> {
  const current = bus();
  current.emitter.on(topic, listener);
  try {
    await current.redis?.subscription.listen();
  } catch (error) {
    // Redis unreachable: this instance still hears its own messages.
    console.error('[toolgate] could not listen for approval events:', error);
  }
  return () => current.emitter.off(topic, listener);
}

/** Ends what `notice` names wherever it is held open: every stream of the user, or of one sign-in. */
export function publishAccessRevoked(notice: AccessRevoked): void {
  publishOnBus('access', notice);
}

/** Calls `listener` with every {@link AccessRevoked} notice until the returned function is called. */
export function listenForAccessRevoked(listener: (notice: AccessRevoked) => void): Promise<() => void> {
  return listenOnBus('access', (payload) => {
    if (isAccessRevoked(payload)) listener(payload);
  });
}
