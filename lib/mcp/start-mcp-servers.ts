import 'server-only';
import { ConfigError } from '@/lib/config';
import { toolNames } from '@/lib/tools/tool-catalog';
import { getMcpServerPool } from './mcp-server-pool';

/**
 * Connects every configured MCP server at start-up and checks that the MCP tools named
 * in `AGENT_CONFIRM_TOOLS` and in the rules of `TOOLGATE_POLICY` exist, so a typo cannot
 * silently leave a tool without approval. A server that cannot be reached does not stop
 * the start: its tools join once it answers (and its names are only warned about until then).
 */
export async function startMcpServers(
  confirmTools: Iterable<string>,
  policyTools: Iterable<string> = [],
): Promise<void> {
  const pool = getMcpServerPool();
  if (pool === undefined) return;
  await pool.ready();
  for (const server of pool.unreachableServers()) {
    console.warn(`[toolgate] MCP server "${server}" is not reachable yet; its tools join when it answers.`);
  }
  const problems: string[] = [];
  for (const [variable, names] of [
    ['AGENT_CONFIRM_TOOLS', confirmTools],
    ['TOOLGATE_POLICY', policyTools],
  ] as const) {
    const { unknown, unchecked } = pool.unknownToolNames(names);
    for (const name of unchecked) {
      console.warn(`[toolgate] ${variable} names "${name}", whose server has not answered yet.`);
    }
    if (unknown.length > 0) {
      const known = [...toolNames, ...pool.toolInfos().map((info) => info.name)];
      problems.push(
        `- ${variable} names unknown tool(s) ${unknown.map((name) => `"${name}"`).join(', ')}; known tools: ${known.join(', ')}`,
      );
    }
  }
  // Children of stdio servers must not outlive the app; the sync part of close() kills them.
  process.once('exit', () => void pool.close());
  if (problems.length > 0) throw new ConfigError(`Invalid Toolgate configuration:\n${problems.join('\n')}`);
}
