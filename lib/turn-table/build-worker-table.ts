import type { ToolSet } from 'ai';
import type { AppConfig } from '@/lib/config';
import type { Db } from '@/lib/db/engine';
import { mergeMcpTools } from '@/lib/mcp/merge-mcp-tools';
import { toolsWithRules } from '@/lib/policy';
import { createWorkerTools } from '@/lib/tools/registry';
import { confirmToolNamesOf, writeToolNames } from '@/lib/tools/tool-catalog';
import { isWorkerName } from '@/lib/tools/worker-names';

/** A worker's whole tool table for one turn, before any shell, and which of its tools need which shell. */
export type WorkerTable = {
  /** The worker the table belongs to (built-in or added by an MCP server). */
  worker: string;
  /** Everything the turn can call: the built-in tools of the worker and its MCP tools. */
  tools: ToolSet;
  /**
   * Tools of this table the approval shell guards: those that wait for a person without a
   * policy (`defaultConfirmTools`) and those an approval policy rule names.
   */
  confirmTools: ReadonlySet<string>;
  /** Tools that wait for their requester when no policy rule matches: `AGENT_CONFIRM_TOOLS` and MCP tools that need it. */
  defaultConfirmTools: ReadonlySet<string>;
  /** Tools the idempotency shell guards: the built-in writes and MCP tools that are not read-only. */
  writeTools: ReadonlySet<string>;
};

/**
 * Builds `worker`'s tool table, the same way for every path that runs a tool: a new
 * turn, a parked turn continued from the database, and an approval whose edited input
 * is checked against the tool's schema. What is not in it cannot be called.
 */
export function buildWorkerTable(
  db: Db,
  worker: string,
  { chatId, ownerId }: { chatId: string; ownerId: string },
  config: Pick<AppConfig, 'AGENT_CONFIRM_TOOLS'>,
): WorkerTable {
  const builtIn = isWorkerName(worker) ? createWorkerTools(worker, db, { chatId, userId: ownerId }) : {};
  const merged = mergeMcpTools(worker, builtIn);
  const inTable = (name: string) => Object.hasOwn(merged.tools, name);
  const defaultConfirmTools = new Set(
    [...confirmToolNamesOf(config.AGENT_CONFIRM_TOOLS), ...merged.confirmTools].filter(inTable),
  );
  return {
    worker,
    tools: merged.tools,
    confirmTools: new Set([...defaultConfirmTools, ...[...toolsWithRules()].filter(inTable)]),
    defaultConfirmTools,
    writeTools: new Set([...writeToolNames, ...merged.writeTools]),
  };
}
