import type { Db } from '@/lib/db/engine';
import { addTodoTool } from './add-todo';
import { createTicketTool } from './create-ticket';
import { getOrderStatusTool } from './get-order-status';
import { issueRefundTool } from './issue-refund';
import { listTodosTool } from './list-todos';
import { searchKnowledgeBaseTool } from './search-knowledge-base';
import type { ToolName, WorkerToolName } from './tool-catalog';
import type { ToolContext } from './tool-context';
import { isWorkerName, type WorkerName, workerNames } from './worker-names';

/**
 * Every built-in tool, declared once (facts and factory), one line each. Adding a tool is
 * its facts and its tool (two files), a line here and a line in `tool-catalog.ts`; every
 * other list (config's known tools, worker tables, the write tools, summaries, labels,
 * help texts, the router's table) is derived. Order: as help texts list the tools.
 */
export const toolRegistry = [
  getOrderStatusTool,
  createTicketTool,
  issueRefundTool,
  searchKnowledgeBaseTool,
  addTodoTool,
  listTodosTool,
] as const;

type Descriptor = (typeof toolRegistry)[number];

// Both lists name the same tools: a tool registered without its facts, or facts without their tool, fails here.
type SameNames = [Descriptor['name']] extends [ToolName]
  ? [ToolName] extends [Descriptor['name']]
    ? true
    : never
  : never;
const sameNames: SameNames = true;
void sameNames;

/** Every tool the product has, keyed by name, as the registry's factories build them. */
export type Toolbox = { [NAME in ToolName]: ReturnType<Extract<Descriptor, { name: NAME }>['create']> };

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
  const table: Record<string, unknown> = {};
  for (const descriptor of toolRegistry) {
    if ((descriptor.workers as readonly string[]).includes(worker)) {
      table[descriptor.name] = descriptor.create(db, context);
    }
  }
  return table as WorkerTools<WORKER>;
}
