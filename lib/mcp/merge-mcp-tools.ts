import 'server-only';
import type { ToolSet } from 'ai';
import { toolFactsOf } from '@/lib/tools/tool-catalog';
import { getMcpServerPool } from './mcp-server-pool';

/** A worker's whole table for one turn, and the tools beyond the built-in lists that need each shell. */
export type MergedWorkerTools = {
  tools: ToolSet;
  /** MCP tools that wait for a person (in addition to `AGENT_CONFIRM_TOOLS`). */
  confirmTools: ReadonlySet<string>;
  /** MCP tools the idempotency shell guards (in addition to the built-in write tools). */
  writeTools: ReadonlySet<string>;
};

/** Waits until every MCP server had its first chance to connect; at once without `MCP_CONFIG`. */
export async function waitForMcpServers(): Promise<void> {
  await getMcpServerPool()?.ready();
}

/**
 * Adds the MCP tools attached to `worker` to its built-in table. The result is the
 * whole table: what is not in it cannot be called this turn.
 */
export function mergeMcpTools(worker: string, table: ToolSet): MergedWorkerTools {
  const mcp = getMcpServerPool()?.workerTools(worker);
  if (mcp === undefined) return { tools: table, confirmTools: new Set(), writeTools: new Set() };
  return { tools: { ...table, ...mcp.tools }, confirmTools: mcp.confirmTools, writeTools: mcp.writeTools };
}

/** The worker whose table holds `toolName`: a built-in table, else the worker its MCP server joins. */
export function workerOfTool(toolName: string): string | undefined {
  const builtIn = toolFactsOf(toolName)?.workers[0];
  if (builtIn !== undefined) return builtIn;
  return getMcpServerPool()
    ?.toolInfos()
    .find((info) => info.name === toolName)?.worker;
}

/**
 * Whether `toolName`'s output is trusted: a built-in tool says so in its facts, an MCP tool's
 * server in its config (untrusted by default). A name nobody knows is untrusted.
 */
export function trustOfTool(toolName: string): 'trusted' | 'untrusted' {
  const facts = toolFactsOf(toolName);
  if (facts !== undefined) return facts.trust;
  const info = getMcpServerPool()
    ?.toolInfos()
    .find((candidate) => candidate.name === toolName);
  return info?.trusted === true ? 'trusted' : 'untrusted';
}

/** Every MCP tool that waits for a person, whatever its worker. */
export function mcpConfirmToolNames(): string[] {
  return (getMcpServerPool()?.toolInfos() ?? [])
    .filter((info) => info.needsApproval)
    .map((info) => info.name);
}
