import { configErrorOf, getConfig } from '@/lib/config';
import { type McpConfig, readMcpConfig } from './mcp-config';

type CachedRead = { path: string; result: ReturnType<typeof readMcpConfig> };

// Kept on globalThis: route handlers and server actions load separate module instances. No
// `server-only` here: the operator's commands (scripts/) run the start-up check outside Next.js.
const globalForMcpConfig = globalThis as typeof globalThis & { __toolgateMcpConfig?: CachedRead };

/**
 * Reads and validates the `MCP_CONFIG` file at `path` once per process (again only for
 * another path), so the start-up check and every later reader see the same servers.
 */
export function loadMcpConfig(path: string): { config: McpConfig } | { problems: string[] } {
  const cached = globalForMcpConfig.__toolgateMcpConfig;
  if (cached?.path === path) return cached.result;
  const result = readMcpConfig(path);
  globalForMcpConfig.__toolgateMcpConfig = { path, result };
  return result;
}

/**
 * The MCP servers of this process (`MCP_CONFIG`), or undefined when it is not set. A bad file
 * stops the start-up (lib/startup); should one be read here first, it throws `ConfigError`.
 */
export function getMcpConfig(): McpConfig | undefined {
  const path = getConfig().MCP_CONFIG;
  if (path === undefined) return undefined;
  const result = loadMcpConfig(path);
  if ('problems' in result) throw configErrorOf(result.problems);
  return result.config;
}
