import type { ToolName } from '@/lib/config';

/** The workers a turn can be routed to. */
export const workerNames = ['order', 'refund', 'knowledge', 'assistant'] as const;

/** One of `workerNames`. */
export type WorkerName = (typeof workerNames)[number];

/**
 * Each worker's whole tool table: the smallest set that does its job. A tool missing
 * here cannot be called by that worker, whatever the prompt says.
 *
 * Plain data in its own module (no database, no tool factories) so the UI and the
 * offline model can read the tables without pulling in SQLite.
 */
export const toolNamesByWorker = {
  order: ['getOrderStatus'],
  refund: ['createTicket'],
  knowledge: ['searchKnowledgeBase'],
  assistant: ['addTodo', 'listTodos'],
} as const satisfies Record<WorkerName, readonly ToolName[]>;

/** The tool names of worker `WORKER`. */
export type WorkerToolName<WORKER extends WorkerName> = (typeof toolNamesByWorker)[WORKER][number];

/** True for one of the four worker names (checked as an own property: the value may come from a client). */
export function isWorkerName(value: unknown): value is WorkerName {
  return typeof value === 'string' && Object.hasOwn(toolNamesByWorker, value);
}
