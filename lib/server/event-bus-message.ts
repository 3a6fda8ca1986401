import { redisChannels } from '@toolgate/engine/redis';

/**
 * The wire format of the server event bus (lib/server/event-bus.ts), apart so that the
 * operators' CLI, which runs outside the server, can publish on it too.
 */

/** The Redis channel every instance publishes its events on and listens to. */
export const eventBusChannel = redisChannels.eventBus;

/**
 * What the bus carries: `event`, what happened to an approval; `access`, that a user's
 * (or one sign-in's) access ended or narrowed, so whatever is held open on it must end;
 * `stop`, Stop pressed for a chat whose turn may run on another instance (its chat id);
 * `turn-ended`, that a chat's turn has saved its end (its chat id).
 */
export const eventBusTopics = ['event', 'access', 'stop', 'turn-ended'] as const;

/** One of {@link eventBusTopics}. */
export type EventBusTopic = (typeof eventBusTopics)[number];

/** One message on the channel: `{ origin, <topic>: payload }`. */
export function encodeBusMessage(origin: string, topic: EventBusTopic, payload: unknown): string {
  return JSON.stringify({ origin, [topic]: payload });
}

/** Someone's access ended or narrowed: every stream of `userId` (or only of that sign-in) ends. */
export type AccessRevoked = {
  userId: string;
  /** The better-auth session (one sign-in), when only that one ended; absent: all of the user's. */
  authSessionId?: string;
};

/** Whether `value` is an {@link AccessRevoked} notice. */
export function isAccessRevoked(value: unknown): value is AccessRevoked {
  if (typeof value !== 'object' || value === null) return false;
  const { userId, authSessionId } = value as Partial<AccessRevoked>;
  return typeof userId === 'string' && (authSessionId === undefined || typeof authSessionId === 'string');
}
