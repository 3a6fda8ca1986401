import type { Policy, PolicyNames } from '@toolgate/engine/policy';
import { type AppConfig, configErrorOf, toolSettingsOf, tryParseConfig } from '@/lib/config';
import { loadMcpConfig } from '@/lib/mcp/get-mcp-config';
import type { McpConfig } from '@/lib/mcp/mcp-config';
import type { McpServerPool } from '@/lib/mcp/mcp-server-pool';
import { parseMcpToolName } from '@/lib/mcp/mcp-tool-name';
import { loadPolicyFile } from '@/lib/policy/policy-store';
import { confirmToolNamesOf, isToolName, toolFactsOf, toolNames } from '@/lib/tools/tool-catalog';

/** What start-up found valid: the environment, the MCP servers and the policy in force. */
export type StartupConfiguration = {
  config: AppConfig;
  /** The `MCP_CONFIG` file; undefined when unset. */
  mcp: McpConfig | undefined;
  /** The `TOOLGATE_POLICY` file, now the policy in force; undefined when unset. */
  policy: Policy | undefined;
  /** The tools that wait for a person when no rule matches (`AGENT_CONFIRM_TOOLS` or its default). */
  confirmTools: ReadonlySet<string>;
};

/**
 * Validates the whole configuration as the server does before it serves anything: the
 * environment (lib/config), the `MCP_CONFIG` file (lib/mcp), the `TOOLGATE_POLICY` file
 * (lib/policy, which then holds it in force) and the names they give each other. An
 * unknown name in `AGENT_CONFIRM_TOOLS` would silently turn approval off, and a rule naming
 * an unknown tool or field would silently never match, so each stops the start. Throws one
 * `ConfigError` listing every problem. `npm run policy -- check` runs it too.
 */
export function checkStartupConfiguration(
  environment: Record<string, string | undefined> = process.env,
): StartupConfiguration {
  const problems: string[] = [];
  const parsed = tryParseConfig(environment);
  if ('problems' in parsed) problems.push(...parsed.problems);
  // Read even when another variable is wrong, so the one error lists the files' problems too.
  const settings = toolSettingsOf(environment);
  const mcpRead = settings.MCP_CONFIG === undefined ? undefined : loadMcpConfig(settings.MCP_CONFIG);
  if (mcpRead !== undefined && 'problems' in mcpRead) problems.push(...mcpRead.problems);
  const mcp = mcpRead !== undefined && 'config' in mcpRead ? mcpRead.config : undefined;
  // A broken MCP file names no servers: `<server>__<tool>` names are not judged against it then.
  const servers = mcpRead === undefined || mcp !== undefined ? Object.keys(mcp?.servers ?? {}) : undefined;
  problems.push(...unknownConfirmTools(settings.AGENT_CONFIRM_TOOLS ?? new Set(), servers));
  let policy: Policy | undefined;
  if (settings.TOOLGATE_POLICY !== undefined) {
    const loaded = loadPolicyFile(settings.TOOLGATE_POLICY, policyNamesOf(servers));
    if ('problems' in loaded) problems.push(...loaded.problems);
    else policy = loaded.policy;
  }
  if ('problems' in parsed || problems.length > 0) throw configErrorOf(problems);
  return {
    config: parsed.config,
    mcp,
    policy,
    confirmTools: confirmToolNamesOf(parsed.config.AGENT_CONFIRM_TOOLS),
  };
}

/**
 * The MCP tools `AGENT_CONFIRM_TOOLS` and the policy's rules name that the servers which
 * answered do not list: until a server answers, only its name was checked. A server not
 * answering yet does not stop the start; its names are warned about.
 */
export function checkToolsOfAnsweringServers(
  pool: Pick<McpServerPool, 'unknownToolNames' | 'toolInfos'>,
  { confirmTools, policy }: Pick<StartupConfiguration, 'confirmTools' | 'policy'>,
): void {
  const problems: string[] = [];
  for (const [variable, names] of [
    ['AGENT_CONFIRM_TOOLS', confirmTools],
    ['TOOLGATE_POLICY', policy?.rules.map((rule) => rule.tool) ?? []],
  ] as const) {
    const { unknown, unchecked } = pool.unknownToolNames(names);
    for (const name of unchecked) {
      console.warn(`[toolgate] ${variable} names "${name}", whose server has not answered yet.`);
    }
    if (unknown.length > 0) {
      const known = [...toolNames, ...pool.toolInfos().map((info) => info.name)];
      problems.push(
        `${variable} names unknown tool(s) ${unknown.map((name) => `"${name}"`).join(', ')}; known tools: ${known.join(', ')}`,
      );
    }
  }
  if (problems.length > 0) throw configErrorOf(problems);
}

/** True for a tool the built-in catalog or one of `servers` may hold; any server counts when they are unknown. */
function isKnownTool(name: string, servers: readonly string[] | undefined): boolean {
  if (isToolName(name)) return true;
  const server = parseMcpToolName(name)?.server;
  return server !== undefined && (servers === undefined || servers.includes(server));
}

/**
 * An unknown name in `AGENT_CONFIRM_TOOLS` lists the known tools, so a typo can never
 * silently turn approval off. An MCP tool name must name a configured server here; its
 * tool part is checked once the server answers (`checkToolsOfAnsweringServers`).
 */
function unknownConfirmTools(names: ReadonlySet<string>, servers: readonly string[] | undefined): string[] {
  const unknown = [...names].filter((name) => !isKnownTool(name, servers));
  if (unknown.length === 0) return [];
  const mcpHint =
    servers !== undefined && servers.length > 0
      ? `, or <server>__<tool> for MCP servers ${servers.join(', ')}`
      : '';
  return [
    `AGENT_CONFIRM_TOOLS names unknown tool(s) ${unknown.map((name) => `"${name}"`).join(', ')}; known tools: ${toolNames.join(', ')}${mcpHint}`,
  ];
}

/**
 * What a policy rule may name, at start-up and in every later edit of the file: a built-in
 * tool, with `when` fields it takes, or a tool of a configured MCP server.
 */
function policyNamesOf(servers: readonly string[] | undefined): PolicyNames {
  return {
    isKnownTool: (name) => isKnownTool(name, servers),
    fieldsOf: (name) => {
      const facts = toolFactsOf(name);
      return facts === undefined ? undefined : Object.keys(facts.fieldLabels);
    },
    knownToolNames: [...toolNames, ...(servers ?? []).map((server) => `${server}__<tool>`)],
  };
}
