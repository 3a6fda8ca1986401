import type { ToolName } from '@/lib/config';
import type { Db } from '@/lib/db/engine';
import { createAddTodoTool } from './add-todo';
import { createCreateTicketTool } from './create-ticket';
import { createGetOrderStatusTool } from './get-order-status';
import { createListTodosTool } from './list-todos';
import { createSearchKnowledgeBaseTool } from './search-knowledge-base';
import type { ToolContext } from './tool-context';
import {
  isWorkerName,
  toolNamesByWorker,
  type WorkerName,
  type WorkerToolName,
  workerNames,
} from './tool-names-by-worker';

export {
  isWorkerName,
  toolNamesByWorker,
  type WorkerName,
  type WorkerToolName,
  workerNames,
} from './tool-names-by-worker';

/** Every tool the product has, keyed by name. */
export function createToolbox(db: Db, context: ToolContext) {
  return {
    getOrderStatus: createGetOrderStatusTool(db),
    createTicket: createCreateTicketTool(db, context),
    searchKnowledgeBase: createSearchKnowledgeBaseTool(db),
    addTodo: createAddTodoTool(db, context),
    listTodos: createListTodosTool(db, context),
  } satisfies Record<ToolName, unknown>;
}

/** All five tools, as `createToolbox` returns them. */
export type Toolbox = ReturnType<typeof createToolbox>;

/** The tool table of worker `WORKER`. */
export type WorkerTools<WORKER extends WorkerName> = Pick<Toolbox, WorkerToolName<WORKER>>;

/**
 * A new object holding exactly `worker`'s tools and nothing else. Only that worker's
 * tools are built, so the others do not exist for this turn at all.
 */
export function createWorkerTools<WORKER extends WorkerName>(
  worker: WORKER,
  db: Db,
  context: ToolContext,
): WorkerTools<WORKER> {
  if (!isWorkerName(worker)) {
    throw new TypeError(
      `Unknown worker ${JSON.stringify(worker)}; expected one of ${workerNames.join(', ')}`,
    );
  }
  const factories: { [NAME in ToolName]: () => Toolbox[NAME] } = {
    getOrderStatus: () => createGetOrderStatusTool(db),
    createTicket: () => createCreateTicketTool(db, context),
    searchKnowledgeBase: () => createSearchKnowledgeBaseTool(db),
    addTodo: () => createAddTodoTool(db, context),
    listTodos: () => createListTodosTool(db, context),
  };
  const table: Partial<Toolbox> = {};
  for (const name of toolNamesByWorker[worker] as readonly ToolName[]) {
    (table as Record<string, unknown>)[name] = factories[name]();
  }
  return table as WorkerTools<WORKER>;
}
