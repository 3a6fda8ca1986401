import 'server-only';
import { type Db, getApproval, getDb, listPendingDeadlines } from '@/lib/db';
import { outsideRequest } from '@/lib/server/outside-request';
import { settleChatApprovals } from './settle-tool-parts';
import { runningTurns } from './turn-streams';

/** How long after its deadline a parked approval is settled (so a live turn's own timer goes first). */
const settleLateByMs = 250;
/**
 * The same for the approvals a starting server finds pending: some may wait live on
 * another instance, whose own timer must win by a wide margin.
 */
const startupLateByMs = 5_000;

/**
 * Keeps the deadline of an approval whose turn has parked: nothing else in this
 * process waits for it, so once it is due (extensions included) the row becomes
 * `expired`, the saved card says so and the audit log records `timeout`, whether
 * or not anybody looks at the chat. A timer and two ids per approval, no more.
 * After a restart there are no such timers; reading the chat settles it then.
 */
export function watchParkedDeadline(
  db: Db,
  approvalId: string,
  expiresAt: number,
  lateByMs: number = settleLateByMs,
): void {
  // Made outside the request that parked the turn, or the timer would keep that request alive.
  const timer = outsideRequest(() =>
    setTimeout(
      () => {
        void (async () => {
          const row = await getApproval(db, approvalId);
          if (row?.status !== 'pending') return;
          if (row.expiresAt > Date.now()) {
            watchParkedDeadline(db, approvalId, row.expiresAt);
            return;
          }
          await settleChatApprovals(db, row.chatId, { isRunningHere: runningTurns().has(row.chatId) });
        })().catch((error: unknown) => {
          console.error('[toolgate] could not settle an expired approval:', error);
        });
      },
      Math.max(0, expiresAt - Date.now()) + lateByMs,
    ),
  );
  timer.unref?.();
}

/**
 * At start-up, keeps the deadline of every approval left pending (by this server
 * before a restart, or waiting on another instance): each expires on time, audited,
 * without waiting for somebody to open its chat. A database that cannot be read yet
 * is logged and left to the settle-on-read path.
 */
export async function watchPendingDeadlines(): Promise<void> {
  try {
    const db = await getDb();
    for (const { id, expiresAt } of await listPendingDeadlines(db)) {
      watchParkedDeadline(db, id, expiresAt, startupLateByMs);
    }
  } catch (error) {
    console.error('[toolgate] could not read the pending approvals at start-up:', error);
  }
}
