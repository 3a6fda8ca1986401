import 'server-only';
import { EventEmitter } from 'node:events';
import { getConfig } from '@/lib/config';
import { ensureRedisReady, getRedisClient } from '@/lib/stores/redis-client';
import { createRedisSubscription, type RedisSubscription } from '@/lib/stores/redis-subscription';

/**
 * What happened to an approval, told to whoever listens in any instance:
 * - `taken`: a turn took the decision on (the live one, or a continuation);
 * - `changed`: a step was decided, the status moved, or the deadline moved.
 */
export type ApprovalEvent = { type: 'taken' | 'changed'; approvalId: string; chatId: string };

type Bus = {
  emitter: EventEmitter;
  /** This process's id: its own messages come back over Redis and are skipped there. */
  origin: string;
  redis?: { subscription: RedisSubscription; publish: (message: string) => Promise<unknown> };
};

const channel = 'toolgate:approval-events';

/*
 * Keyed on globalThis: route handlers and server actions load separate module
 * instances, and a decision made in one must reach a turn waiting in the other.
 */
const globalForEvents = globalThis as typeof globalThis & { __toolgateApprovalEvents?: Bus };

function bus(): Bus {
  let current = globalForEvents.__toolgateApprovalEvents;
  if (current !== undefined) return current;
  const emitter = new EventEmitter();
  // One listener per open approval page or waiting hand-over: not a leak.
  emitter.setMaxListeners(0);
  current = { emitter, origin: crypto.randomUUID() };
  const url = getConfig().REDIS_URL;
  if (url) {
    const client = getRedisClient(url);
    const origin = current.origin;
    current.redis = {
      subscription: createRedisSubscription({
        client,
        channel,
        label: 'approval events subscriber',
        onMessage: (message) => {
          let parsed: { origin?: unknown; event?: ApprovalEvent };
          try {
            parsed = JSON.parse(message);
          } catch {
            return;
          }
          if (parsed.origin === origin || !isApprovalEvent(parsed.event)) return;
          emitter.emit('event', parsed.event);
        },
      }),
      // The shared client connects on first use: a publish may be the first.
      publish: async (message) => {
        await ensureRedisReady(client);
        return client.publish(channel, message);
      },
    };
  }
  globalForEvents.__toolgateApprovalEvents = current;
  return current;
}

function isApprovalEvent(value: unknown): value is ApprovalEvent {
  if (typeof value !== 'object' || value === null) return false;
  const { type, approvalId, chatId } = value as Partial<ApprovalEvent>;
  return (
    (type === 'taken' || type === 'changed') && typeof approvalId === 'string' && typeof chatId === 'string'
  );
}

/**
 * Tells every listener, here at once and in other instances over Redis. Best effort:
 * a lost notification only costs a fallback (the hand-over's bound, a page's reload
 * of the row), never a decision.
 */
export function publishApprovalEvent(event: ApprovalEvent): void {
  const current = bus();
  current.emitter.emit('event', event);
  current.redis
    ?.publish(JSON.stringify({ origin: current.origin, event }))
    .catch((error: unknown) => console.error('[toolgate] could not publish an approval event:', error));
}

/**
 * Calls `listener` for every event that `filter` keeps until the returned function is
 * called. Resolves once listening has started everywhere (the Redis subscription is up),
 * so whatever the caller checks next cannot miss an event published after it.
 */
export async function subscribeApprovalEvents(
  filter: (event: ApprovalEvent) => boolean,
  listener: (event: ApprovalEvent) => void,
): Promise<() => void> {
  const current = bus();
  const onEvent = (event: ApprovalEvent) => {
    if (filter(event)) listener(event);
  };
  current.emitter.on('event', onEvent);
  try {
    await current.redis?.subscription.listen();
  } catch (error) {
    // Redis unreachable: this instance still hears its own events.
    console.error('[toolgate] could not listen for approval events:', error);
  }
  return () => current.emitter.off('event', onEvent);
}

/**
 * Resolves true when `event` of `approvalId` arrives or `isDone()` already holds, false
 * after `timeoutMs`. Subscribes before the first check, so nothing falls between them.
 */
export async function waitForApprovalEvent(
  approvalId: string,
  type: ApprovalEvent['type'],
  { timeoutMs, isDone }: { timeoutMs: number; isDone: () => Promise<boolean> },
): Promise<boolean> {
  let resolveWait!: (value: boolean) => void;
  const arrived = new Promise<boolean>((resolve) => {
    resolveWait = resolve;
  });
  const stop = await subscribeApprovalEvents(
    (event) => event.approvalId === approvalId && event.type === type,
    () => resolveWait(true),
  );
  const timer = setTimeout(() => resolveWait(false), timeoutMs);
  try {
    if (await isDone()) return true;
    return await arrived;
  } finally {
    clearTimeout(timer);
    stop();
  }
}
