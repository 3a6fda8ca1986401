import { ConfigError, getConfig } from './lib/config';
import { startMcpServers } from './lib/mcp/start-mcp-servers';

/**
 * Parsing the configuration at start-up turns a bad value (say a typo in
 * AGENT_CONFIRM_TOOLS, which must never silently turn approval off, or a broken
 * MCP_CONFIG file) into a failure to start. Next.js would only log the error and
 * keep serving requests that can only fail, so the process exits. MCP servers are
 * connected here too, so the first chat finds their tools ready.
 */
export async function startServer(): Promise<void> {
  try {
    await startMcpServers(getConfig().AGENT_CONFIRM_TOOLS);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
