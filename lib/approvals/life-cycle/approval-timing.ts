/**
 * Every span of time the approval life cycle waits, in one place. The deadline
 * itself comes from configuration (`AGENT_CONFIRM_TIMEOUT_MS`) or from the policy
 * rule that applied; these are the margins around it.
 */
export const approvalTiming = {
  /** How much time one "+60 s" adds to a deadline. */
  extensionMs: 60_000,
  /** How many times one approval's deadline may be pushed back. */
  maxExtensions: 3,
  /**
   * After a decision wakes a live turn, how long that turn has to say it took the
   * decision on (a notification, not a poll) before the deciding request continues
   * the turn from the database instead: its instance is presumed gone.
   */
  takeOverMs: 2_000,
  /** How long after its deadline a parked approval is expired (so a live turn's own timer goes first). */
  parkedExpiryLateMs: 250,
  /**
   * The same for the approvals a starting server finds pending: some may wait live on
   * another instance, whose own timer must win by a wide margin.
   */
  startupExpiryLateMs: 5_000,
  /** How long a decided row may wait for the turn that should take it on before a reader does. */
  unclaimedGraceMs: 5_000,
  /** How long a call may run before a reader treats the server that ran it as gone. */
  executionLeaseMs: 120_000,
} as const;

// setTimeout's limit: a longer delay fires at once.
const maxTimerMs = 2 ** 31 - 1;

/** A delay until `at` (epoch ms) that setTimeout keeps: never negative, never past its limit. */
export function delayUntil(at: number, now = Date.now()): number {
  return Math.min(maxTimerMs, Math.max(0, at - now));
}
