import 'server-only';
import { writeExecutionOf } from '@toolgate/engine';
import { type JSONSchema7, jsonSchema, type ToolSet, tool } from 'ai';
import { getMcpConfig } from './get-mcp-config';
import type { McpConfig } from './mcp-config';
import { McpServerConnection, type McpToolDefinition } from './mcp-server-connection';
import { mcpToolName } from './mcp-tool-name';
import { toMcpToolOutput } from './mcp-tool-output';

/** What Toolgate knows about one MCP tool: where it lives and how the shells treat it. */
export type McpToolInfo = {
  /** The table name, `<server>__<tool>`. */
  name: string;
  server: string;
  worker: string;
  description: string;
  /** Waits for a person before it runs (the server's `approval`, and for "auto" its annotations). */
  needsApproval: boolean;
  /** Not marked read-only by the server: guarded by idempotency. */
  writes: boolean;
  /** The server is configured `"trust": "trusted"`; otherwise its answers count as an outsider's text. */
  trusted: boolean;
};

/** The MCP part of one worker's table, with the tool names each shell must guard. */
export type McpWorkerTools = { tools: ToolSet; confirmTools: Set<string>; writeTools: Set<string> };

// What every model provider accepts as a function name.
const portableToolName = /^[A-Za-z0-9_-]{1,64}$/;
const maxDescriptionChars = 1_000;

type ServerTools = { tools: ToolSet; infos: McpToolInfo[] };

/**
 * Every configured MCP server's connection, one per server for the process, and the
 * AI SDK tools built from their tool lists. The tools call through the connection, so
 * they keep working across reconnections and answer a clear error while it is down.
 */
export class McpServerPool {
  private readonly connections: McpServerConnection[];
  private readonly toolsByServer = new Map<string, ServerTools>();
  private started: Promise<void> | undefined;

  constructor(readonly config: McpConfig) {
    this.connections = Object.entries(config.servers).map(([name, server]) => {
      const connection: McpServerConnection = new McpServerConnection(name, server, {
        ...config.reconnect,
        onToolsChanged: () => this.toolsByServer.set(name, this.buildTools(connection)),
      });
      return connection;
    });
  }

  /** Resolves once every server's first connection attempt has settled (connected or not). */
  ready(): Promise<void> {
    this.started ??= Promise.all(this.connections.map((connection) => connection.connect())).then(() => {});
    return this.started;
  }

  /** The MCP tools attached to `worker`, and which of them need approval and idempotency. */
  workerTools(worker: string): McpWorkerTools {
    const result: McpWorkerTools = { tools: {}, confirmTools: new Set(), writeTools: new Set() };
    for (const { tools, infos } of this.toolsByServer.values()) {
      for (const info of infos) {
        if (info.worker !== worker) continue;
        result.tools[info.name] = tools[info.name];
        if (info.needsApproval) result.confirmTools.add(info.name);
        if (info.writes) result.writeTools.add(info.name);
      }
    }
    return result;
  }

  /** Every MCP tool known so far, with whether its server is reachable right now. */
  toolInfos(): (McpToolInfo & { available: boolean })[] {
    return this.connections.flatMap((connection) =>
      (this.toolsByServer.get(connection.name)?.infos ?? []).map((info) => ({
        ...info,
        available: connection.status === 'connected',
      })),
    );
  }

  /**
   * The names among `names` that claim a configured server's tool the server does not
   * have. Only servers that were reached can be checked; the others are returned in
   * `unchecked`, so start-up can warn about them instead of failing.
   */
  unknownToolNames(names: Iterable<string>): { unknown: string[]; unchecked: string[] } {
    const unknown: string[] = [];
    const unchecked: string[] = [];
    for (const name of names) {
      const connection = this.connections.find((candidate) => name.startsWith(`${candidate.name}__`));
      if (connection === undefined) continue;
      if (!this.toolsByServer.has(connection.name)) unchecked.push(name);
      else if (!this.toolsByServer.get(connection.name)?.infos.some((info) => info.name === name))
        unknown.push(name);
    }
    return { unknown, unchecked };
  }

  /** Names of the servers never reached so far. */
  unreachableServers(): string[] {
    return this.connections.filter((connection) => connection.status !== 'connected').map(({ name }) => name);
  }

  /** Closes every client; stdio servers are stopped. */
  async close(): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.close()));
  }

  private buildTools(connection: McpServerConnection): ServerTools {
    const server = this.config.servers[connection.name];
    const tools: ToolSet = {};
    const infos: McpToolInfo[] = [];
    for (const definition of connection.definitions) {
      const name = mcpToolName(connection.name, definition.name);
      if (!portableToolName.test(name)) {
        console.warn(
          `[toolgate] MCP tool "${name}" skipped: a tool name may hold only A-Z a-z 0-9 _ - (64 at most)`,
        );
        continue;
      }
      // Annotations are hints from the server; anything not declared read-only is treated as a write.
      const readOnly = definition.annotations?.readOnlyHint === true;
      const needsApproval = server.approval === 'always' || (server.approval === 'auto' && !readOnly);
      const description = (definition.description ?? definition.title ?? definition.name).slice(
        0,
        maxDescriptionChars,
      );
      tools[name] = this.buildTool(connection, definition, description);
      infos.push({
        name,
        server: connection.name,
        worker: server.worker,
        description,
        needsApproval,
        writes: !readOnly,
        trusted: server.trust === 'trusted',
      });
    }
    return { tools, infos };
  }

  private buildTool(connection: McpServerConnection, definition: McpToolDefinition, description: string) {
    const { maxOutputChars } = this.config;
    return tool({
      description,
      inputSchema: jsonSchema<Record<string, unknown>>({
        ...definition.inputSchema,
        type: 'object',
        properties: definition.inputSchema.properties ?? {},
        additionalProperties: false,
      } as JSONSchema7),
      // A write guarded by the idempotency shell carries its key to the server (in `_meta`).
      execute: async (input, options) =>
        toMcpToolOutput(
          await connection.callTool(definition.name, input, options.abortSignal, {
            idempotencyKey: writeExecutionOf(options)?.idempotencyKey,
          }),
          { maxChars: maxOutputChars },
        ),
    });
  }
}

const globalForMcp = globalThis as typeof globalThis & { __toolgateMcpServers?: McpServerPool };

/**
 * The process's MCP servers, or undefined when `MCP_CONFIG` is not set. Kept on
 * globalThis: route handlers and server actions load separate module instances, and
 * a second pool would start a second copy of every stdio server.
 */
export function getMcpServerPool(): McpServerPool | undefined {
  const mcp = getMcpConfig();
  let pool = globalForMcp.__toolgateMcpServers;
  // Another MCP_CONFIG file was read (tests do): the old servers go with the old file.
  if (pool !== undefined && pool.config !== mcp) {
    void pool.close();
    pool = undefined;
  }
  if (mcp !== undefined) pool ??= new McpServerPool(mcp);
  globalForMcp.__toolgateMcpServers = pool;
  return pool;
}

/** Closes the process's MCP servers (shutdown, and tests between configurations). */
export async function closeMcpServerPool(): Promise<void> {
  const pool = globalForMcp.__toolgateMcpServers;
  globalForMcp.__toolgateMcpServers = undefined;
  await pool?.close();
}
