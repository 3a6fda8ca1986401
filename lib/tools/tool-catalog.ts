import { addTodoFacts } from './add-todo-facts';
import { createTicketFacts } from './create-ticket-facts';
import { getOrderStatusFacts } from './get-order-status-facts';
import { issueRefundFacts } from './issue-refund-facts';
import { listTodosFacts } from './list-todos-facts';
import { searchKnowledgeBaseFacts } from './search-knowledge-base-facts';
import type { ToolFacts } from './tool-facts';
import { type WorkerName, workerNames } from './worker-names';

/**
 * The facts of every built-in tool, one line each, in the order help texts list them.
 * Client-safe (no server imports): the page reads summaries from here. The tools
 * themselves are registered beside their facts in `registry.ts`.
 */
export const toolCatalog = [
  getOrderStatusFacts,
  createTicketFacts,
  issueRefundFacts,
  searchKnowledgeBaseFacts,
  addTodoFacts,
  listTodosFacts,
] as const;

type CatalogEntry = (typeof toolCatalog)[number];

/** The name of a built-in tool. */
export type ToolName = CatalogEntry['name'];

/** Every built-in tool's name; `AGENT_CONFIRM_TOOLS` may name these (and MCP tools). */
export const toolNames: readonly ToolName[] = toolCatalog.map((facts) => facts.name);

const factsByName: ReadonlyMap<string, ToolFacts<ToolName>> = new Map(
  toolCatalog.map((facts) => [facts.name, facts]),
);

/** True for a built-in tool's name (the name may come from the model or a client). */
export function isToolName(name: unknown): name is ToolName {
  return typeof name === 'string' && factsByName.has(name);
}

/** The facts of a built-in tool, or undefined for any other name (MCP tools, `__proto__`). */
export function toolFactsOf(name: string): ToolFacts<ToolName> | undefined {
  return factsByName.get(name);
}

/** The built-in tools that change data; the idempotency shell guards these by default. */
export const writeToolNames: ReadonlySet<string> = new Set(
  toolCatalog.filter((facts) => facts.kind === 'write').map((facts) => facts.name),
);

/** The built-in tools that ask a person when `AGENT_CONFIRM_TOOLS` is unset. */
export const defaultConfirmToolNames: readonly ToolName[] = toolCatalog
  .filter((facts) => 'confirmByDefault' in facts && facts.confirmByDefault === true)
  .map((facts) => facts.name);

const defaultConfirmTools: ReadonlySet<string> = new Set(defaultConfirmToolNames);

/**
 * The tools that wait for a person when no policy rule matches: those `AGENT_CONFIRM_TOOLS`
 * lists (`setting`; an empty set turns approvals off), or the defaults when it is unset.
 */
export function confirmToolNamesOf(setting: ReadonlySet<string> | undefined): ReadonlySet<string> {
  return setting ?? defaultConfirmTools;
}

/** The tool names of worker `WORKER`. */
export type WorkerToolName<WORKER extends WorkerName> = {
  [NAME in ToolName]: WORKER extends Extract<CatalogEntry, { name: NAME }>['workers'][number] ? NAME : never;
}[ToolName];

/**
 * Each worker's whole tool table: the smallest set that does its job. A tool missing
 * here cannot be called by that worker, whatever the prompt says.
 */
export const toolNamesByWorker = Object.fromEntries(
  workerNames.map((worker) => [
    worker,
    toolCatalog
      .filter((facts) => (facts.workers as readonly WorkerName[]).includes(worker))
      .map((facts) => facts.name),
  ]),
) as unknown as { readonly [WORKER in WorkerName]: readonly WorkerToolName<WORKER>[] };
