/** The product's tools: their facts (client-safe), the registry of descriptors, the worker tables. */
export { orderIdSchema } from './order-id-schema';
export {
  createWorkerTools,
  type Toolbox,
  toolRegistry,
  type WorkerTools,
} from './registry';
export {
  confirmToolNamesOf,
  defaultConfirmToolNames,
  isToolName,
  type ToolName,
  toolCatalog,
  toolNames,
  toolNamesByWorker,
  type WorkerToolName,
  writeToolNames,
} from './tool-catalog';
export type { ToolContext } from './tool-context';
export { isWorkerName, type WorkerName, workerNames } from './worker-names';
