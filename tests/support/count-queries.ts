import type { Db } from '@/lib/db/engine';

/**
 * Counts the queries every Kysely executor in this process runs (the app's, better-auth's,
 * those of transactions) from now until `stop()`: the executors share `db`'s executor class.
 */
export function countQueries(db: Db): { count: () => number; stop: () => void } {
  const executorClass = Object.getPrototypeOf(Object.getPrototypeOf(db.getExecutor())) as {
    executeQuery: (...args: unknown[]) => Promise<unknown>;
  };
  const original = executorClass.executeQuery;
  let count = 0;
  executorClass.executeQuery = function (this: unknown, ...args: unknown[]) {
    count += 1;
    return original.apply(this, args);
  };
  return {
    count: () => count,
    stop: () => {
      executorClass.executeQuery = original;
    },
  };
}
