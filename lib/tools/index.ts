/** The product's tools (one factory per file) and the worker tool tables. */
export { createAddTodoTool } from './add-todo';
export { createCreateTicketTool } from './create-ticket';
export { createGetOrderStatusTool } from './get-order-status';
export { createListTodosTool } from './list-todos';
export { orderIdSchema } from './order-id-schema';
export { createSearchKnowledgeBaseTool } from './search-knowledge-base';
export type { ToolContext } from './tool-context';
export {
  createToolbox,
  createWorkerTools,
  isWorkerName,
  type Toolbox,
  toolNamesByWorker,
  type WorkerName,
  type WorkerToolName,
  type WorkerTools,
  workerNames,
} from './workers';
