import 'server-only';
import { getConfig } from '@/lib/config';
import { isWorkerName, toolNamesByWorker } from '@/lib/tools/tool-names-by-worker';
import { allWorkerNames } from './mcp-config';
import { getMcpServerPool } from './mcp-server-pool';

/** One worker as the page shows it: its whole table, MCP tools with their server and description. */
export type WorkerListing = {
  name: string;
  tools: string[];
  mcpTools: { name: string; server: string; description: string; available: boolean }[];
};

/** Every worker and its tools, the MCP ones as their servers last listed them. */
export async function listWorkers(): Promise<WorkerListing[]> {
  const pool = getMcpServerPool();
  await pool?.ready();
  const infos = pool?.toolInfos() ?? [];
  return allWorkerNames(getConfig().MCP_CONFIG).map((name) => {
    const mcpTools = infos
      .filter((info) => info.worker === name)
      .map(({ name: toolName, server, description, available }) => ({
        name: toolName,
        server,
        description,
        available,
      }));
    const builtIn: readonly string[] = isWorkerName(name) ? toolNamesByWorker[name] : [];
    return { name, tools: [...builtIn, ...mcpTools.map((tool) => tool.name)], mcpTools };
  });
}
