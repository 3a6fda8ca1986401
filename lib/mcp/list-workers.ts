import 'server-only';
import { toolNames, toolNamesByWorker, writeToolNames } from '@/lib/tools/tool-catalog';
import { isWorkerName } from '@/lib/tools/worker-names';
import { getMcpConfig } from './get-mcp-config';
import { allWorkerNames } from './mcp-config';
import { getMcpServerPool } from './mcp-server-pool';

/** One worker as the page shows it: its whole table, MCP tools with their server and description. */
export type WorkerListing = {
  name: string;
  tools: string[];
  mcpTools: { name: string; server: string; description: string; available: boolean; readOnly: boolean }[];
};

/** Every worker and its tools, the MCP ones as their servers last listed them. */
export async function listWorkers(): Promise<WorkerListing[]> {
  const pool = getMcpServerPool();
  await pool?.ready();
  const infos = pool?.toolInfos() ?? [];
  return allWorkerNames(getMcpConfig()).map((name) => {
    const mcpTools = infos
      .filter((info) => info.worker === name)
      .map(({ name: toolName, server, description, available, writes }) => ({
        name: toolName,
        server,
        description,
        available,
        readOnly: !writes,
      }));
    const builtIn: readonly string[] = isWorkerName(name) ? toolNamesByWorker[name] : [];
    return { name, tools: [...builtIn, ...mcpTools.map((tool) => tool.name)], mcpTools };
  });
}

/**
 * The tools that only read: the built-in tools that do not write, and the MCP tools their
 * server marks read-only. The page folds their calls to one line.
 */
export function readOnlyToolNames(workers: readonly WorkerListing[]): string[] {
  const builtIn = toolNames.filter((name) => !writeToolNames.has(name));
  const mcp = workers.flatMap((worker) =>
    worker.mcpTools.filter((tool) => tool.readOnly).map((tool) => tool.name),
  );
  return [...new Set([...builtIn, ...mcp])];
}
