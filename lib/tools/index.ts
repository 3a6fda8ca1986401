/** The product's tools (one factory per file) and the worker tool tables. */
export { createAddTodoTool } from './add-todo';
export { type CreateTicketToolOptions, createCreateTicketTool } from './create-ticket';
export { createGetOrderStatusTool } from './get-order-status';
export { createListTodosTool } from './list-todos';
export { orderIdSchema } from './order-id-schema';
export { createSearchKnowledgeBaseTool } from './search-knowledge-base';
export {
  createToolbox,
  createWorkerTools,
  isWorkerName,
  type Toolbox,
  type ToolboxOptions,
  toolNamesByWorker,
  type WorkerName,
  type WorkerToolName,
  type WorkerTools,
  workerNames,
} from './workers';
