/**
 * Every Redis pub/sub channel Toolgate uses across instances, in one list. Each is listened
 * to through one helper (`createRedisSubscription`), apart from the resumable streams, whose
 * library subscribes per stream under its prefix.
 */
export const redisChannels = {
  /**
   * The server event bus (lib/server/event-bus.ts): what happened to an approval, access
   * that ended, Stop pressed for a turn another instance runs, and a turn's end.
   */
  eventBus: 'toolgate:approval-events',
  /** The approval registry's verdicts and extensions, under its key prefix. */
  approvalRegistry: (prefix: string) => `${prefix}events`,
  /** The idempotency store's "finished" notices, under its key prefix. */
  idempotency: (prefix: string) => `${prefix}#events`,
  /** The prefix of the resumable streams' keys and channels (one per running turn). */
  resumableStreams: 'toolgate:stream',
} as const;
