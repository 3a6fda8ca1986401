import 'server-only';
import { getMcpServerPool, type McpServerPool } from './mcp-server-pool';

/**
 * Connects every configured MCP server at start-up, so the first chat finds their tools
 * ready; undefined without `MCP_CONFIG`. A server that cannot be reached does not stop the
 * start: its tools join once it answers.
 */
export async function startMcpServers(): Promise<McpServerPool | undefined> {
  const pool = getMcpServerPool();
  if (pool === undefined) return undefined;
  await pool.ready();
  for (const server of pool.unreachableServers()) {
    console.warn(`[toolgate] MCP server "${server}" is not reachable yet; its tools join when it answers.`);
  }
  // Children of stdio servers must not outlive the app; the sync part of close() kills them.
  process.once('exit', () => void pool.close());
  return pool;
}
