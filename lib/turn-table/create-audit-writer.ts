import 'server-only';
import { type Db, insertAuditRow, type NewAuditRow } from '@/lib/db';
import { observeAuditedCall } from '@/lib/telemetry/observe-audited-call';

/**
 * The audit shell's writer for one turn of `userId`. Rows are written without holding up
 * the tool call: each is written once the work already queued has run (the call's output on
 * its way downstream), and `flush` waits for the ones still in flight, so a turn ends only once
 * its audit rows are readable (a client that reads the log right after a turn sees them).
 * Each row is counted in the metrics and its outcome given to the call's span as well.
 */
export function createAuditWriter(
  db: Db,
  userId: string,
): { record: (row: NewAuditRow) => Promise<unknown>; flush: () => Promise<void> } {
  const inFlight = new Set<Promise<unknown>>();
  return {
    record: (row) => {
      observeAuditedCall(row);
      const write: Promise<unknown> = new Promise((resolve) => setImmediate(resolve))
        .then(() => insertAuditRow(db, { ...row, userId }))
        .finally(() => inFlight.delete(write));
      inFlight.add(write);
      return write;
    },
    flush: async () => {
      await Promise.allSettled([...inFlight]);
    },
  };
}
