/** The workers a turn can be routed to; each tool's facts say which of them hold it. */
export const workerNames = ['order', 'refund', 'knowledge', 'assistant'] as const;

/** One of `workerNames`. */
export type WorkerName = (typeof workerNames)[number];

/** True for one of the built-in worker names (checked as an own name: the value may come from a client). */
export function isWorkerName(value: unknown): value is WorkerName {
  return typeof value === 'string' && (workerNames as readonly string[]).includes(value);
}
