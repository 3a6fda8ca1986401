import { writeExecutionOf } from '@toolgate/engine';
import type { Db } from '@/lib/db/engine';

/**
 * How a built-in write tool does its writes: `effect` gets the transaction in which the
 * idempotency shell also records the result, so the rows and the record commit together
 * (see `WriteExecution`), and a repeat the store lost answers the recorded output without
 * running `effect`. `effect` must return the tool's whole output. Outside the shell (an
 * example, a test of the tool alone) it runs on `db` as it is.
 */
export function commitWrite<OUTPUT>(
  db: Db,
  executionOptions: unknown,
  effect: (db: Db) => Promise<OUTPUT>,
): Promise<OUTPUT> {
  const commit = writeExecutionOf(executionOptions)?.commit;
  return commit === undefined ? effect(db) : commit((transaction) => effect(transaction as Db));
}
