import 'server-only';
import { type Db, getApproval } from '@/lib/db';
import { outsideRequest } from '@/lib/server/outside-request';
import { settleChatApprovals } from './settle-tool-parts';
import { runningTurns } from './turn-streams';

/** How long after its deadline a parked approval is settled (so a live turn's own timer goes first). */
const settleLateByMs = 250;

/**
 * Keeps the deadline of an approval whose turn has parked: nothing else in this
 * process waits for it, so once it is due (extensions included) the row becomes
 * `expired`, the saved card says so and the audit log records `timeout`, whether
 * or not anybody looks at the chat. A timer and two ids per approval, no more.
 * After a restart there are no such timers; reading the chat settles it then.
 */
export function watchParkedDeadline(db: Db, approvalId: string, expiresAt: number): void {
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
      Math.max(0, expiresAt - Date.now()) + settleLateByMs,
    ),
  );
  timer.unref?.();
}
