import {
  type CallToolResult,
  createMCPClient,
  type ListToolsResult,
  type MCPClient,
  type MCPTransport,
} from '@ai-sdk/mcp';
import { StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import type { McpServerConfig } from './mcp-config';

/** Where a server connection stands. */
export type McpServerStatus = 'connecting' | 'connected' | 'down';

/** One tool as the server lists it. */
export type McpToolDefinition = ListToolsResult['tools'][number];

/** Thrown when a call cannot reach its server; the message says so in words a person can act on. */
export class McpServerUnavailableError extends Error {
  override name = 'McpServerUnavailableError';
  /** What a user may be told (no addresses or internal error text); the message has the details. */
  readonly publicSummary: string;

  constructor(message: string, publicSummary: string) {
    super(message);
    this.publicSummary = publicSummary;
  }
}

/** Options of {@link McpServerConnection}. */
export type McpServerConnectionOptions = {
  /** The first wait before reconnecting, doubled after each failure. */
  initialDelayMs: number;
  /** The longest wait between reconnection attempts. */
  maxDelayMs: number;
  /** Gives up on connecting (start, initialize, list tools) after this long. Default 10000. */
  connectTimeoutMs?: number;
  /** Gives up on one tool call after this long. Default 60000. */
  callTimeoutMs?: number;
  /** Told whenever the tool list changes (a connection brings a new list). */
  onToolsChanged?: () => void;
};

/** The `_meta` field a write's idempotency key travels in. */
export const idempotencyKeyMeta = 'io.toolgate/idempotency-key';

// A call finding the server down tries to reconnect at once, but not more often than this.
const minimumRetryGapMs = 1_000;

/**
 * One client for one configured MCP server, for the life of the process. It connects,
 * keeps the last tool list it got (so the tools stay in the table while the server is
 * away and answer a clear error), notices when the server goes away (a stdio process
 * exits, an HTTP call fails to connect), and reconnects with exponential backoff.
 */
export class McpServerConnection {
  status: McpServerStatus = 'connecting';
  /** Why the server is down, for logs and the error a call answers. */
  lastError: string | undefined;
  /** The tools from the last successful listing; empty until the server was reached once. */
  definitions: McpToolDefinition[] = [];

  private client: MCPClient | undefined;
  private connecting: Promise<MCPClient | undefined> | undefined;
  private failures = 0;
  /** Numbers the connection attempts, so an event from an old client cannot take down a newer one. */
  private generation = 0;
  private downGeneration = -1;
  private lastAttemptAt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private readonly connectTimeoutMs: number;
  private readonly callTimeoutMs: number;

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly options: McpServerConnectionOptions,
  ) {
    this.connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    this.callTimeoutMs = options.callTimeoutMs ?? 60_000;
  }

  /** Connects (or shares the attempt under way); resolves with the client, or undefined on failure. */
  connect(): Promise<MCPClient | undefined> {
    if (this.closed) return Promise.resolve(undefined);
    if (this.client !== undefined) return Promise.resolve(this.client);
    this.connecting ??= this.attempt().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  /**
   * Calls one tool on the server, reconnecting first when it is down. With an
   * `idempotencyKey` the request carries it as `_meta["io.toolgate/idempotency-key"]`.
   */
  async callTool(
    tool: string,
    input: unknown,
    signal?: AbortSignal,
    { idempotencyKey }: { idempotencyKey?: string } = {},
  ): Promise<CallToolResult> {
    const client = await this.connectedClient();
    const generation = this.generation;
    const call = {
      name: tool,
      arguments: (input ?? {}) as Record<string, unknown>,
      options: { signal, timeout: this.callTimeoutMs },
    };
    try {
      return idempotencyKey === undefined
        ? await client.callTool(call)
        : await callToolWithMeta(client, call, { [idempotencyKeyMeta]: idempotencyKey });
    } catch (error) {
      if (signal?.aborted || isApplicationError(error)) throw error;
      this.markDown(generation, client, error);
      // A refused connection never reached the server; anything else may have failed halfway.
      const outcome = isConnectionRefused(error)
        ? 'is not reachable right now, so the tool did not run'
        : 'went away during the call; the tool may or may not have run';
      throw new McpServerUnavailableError(
        `The MCP server "${this.name}" ${outcome} (${describeError(error)}). Toolgate keeps reconnecting; try again shortly.`,
        `The MCP server "${this.name}" ${outcome}; try again shortly`,
      );
    }
  }

  /** Closes the client and stops reconnecting. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    this.status = 'down';
    await client?.close().catch(() => {});
  }

  private async connectedClient(): Promise<MCPClient> {
    if (this.client !== undefined) return this.client;
    const pending =
      this.connecting ?? (Date.now() - this.lastAttemptAt >= minimumRetryGapMs ? this.connect() : undefined);
    const client = await pending;
    if (client !== undefined) return client;
    throw new McpServerUnavailableError(
      `The MCP server "${this.name}" is not reachable right now${this.lastError ? ` (${this.lastError})` : ''}, so the tool did not run. Toolgate keeps reconnecting; try again shortly.`,
      `The MCP server "${this.name}" is not reachable right now, so the tool did not run; try again shortly`,
    );
  }

  private async attempt(): Promise<MCPClient | undefined> {
    clearTimeout(this.retryTimer);
    this.lastAttemptAt = Date.now();
    this.status = 'connecting';
    const generation = ++this.generation;
    let client: MCPClient | undefined;
    try {
      client = await createMCPClient({
        transport: this.transport(() =>
          this.markDown(generation, client, new Error('the server closed the connection')),
        ),
        clientName: 'toolgate',
        initializationOptions: { timeout: this.connectTimeoutMs },
        // Transport hiccups surface again as a failed call, which is where they are handled.
        onUncaughtError: () => {},
      });
      const definitions = await listAllTools(client, this.connectTimeoutMs);
      // Closed meanwhile, or the server died between listing and now.
      if (this.closed || this.downGeneration === generation) {
        await client.close();
        return undefined;
      }
      this.client = client;
      this.status = 'connected';
      this.failures = 0;
      this.lastError = undefined;
      this.definitions = definitions;
      this.options.onToolsChanged?.();
      return client;
    } catch (error) {
      this.markDown(generation, client, error);
      return undefined;
    }
  }

  private transport(onClose: () => void): MCPTransport | Parameters<typeof createMCPClient>[0]['transport'] {
    const config = this.config;
    if ('url' in config) {
      return { type: 'http', url: config.url, headers: config.headers, redirect: 'error' };
    }
    const stdio = new StdioMCPTransport({
      command: config.command,
      args: config.args,
      env: config.env,
      stderr: 'inherit',
    });
    return observeClose(stdio, onClose);
  }

  /** Marks the server down (once per attempt) and schedules the next attempt. */
  private markDown(generation: number, client: MCPClient | undefined, error: unknown): void {
    client?.close().catch(() => {});
    // An old attempt's client closing (we closed it, or it was replaced) must not take the new one down.
    if (this.closed || generation !== this.generation || this.downGeneration === generation) return;
    this.downGeneration = generation;
    const wasUp = this.client !== undefined;
    this.client = undefined;
    this.status = 'down';
    this.lastError = describeError(error);
    if (wasUp) console.warn(`[toolgate] MCP server "${this.name}" went away: ${this.lastError}`);
    this.failures += 1;
    const delay = Math.min(
      this.options.initialDelayMs * 2 ** Math.min(this.failures - 1, 20),
      this.options.maxDelayMs,
    );
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connect(), delay);
    this.retryTimer.unref?.();
  }
}

type ToolCall = Parameters<MCPClient['callTool']>[0];

/** The client's request method, which `callTool` wraps; it is not part of the typed interface. */
type RequestingClient = {
  request(args: {
    request: { method: 'tools/call'; params: Record<string, unknown> };
    resultSchema: { parse(value: unknown): CallToolResult };
    options?: ToolCall['options'];
  }): Promise<CallToolResult>;
};

/**
 * `tools/call` with `_meta` in its params. `@ai-sdk/mcp`'s `callTool` sends only the name
 * and arguments, so this goes one level down, to the request method `callTool` itself
 * uses (same timeout, signal and input-required rounds; the pinned version is checked by
 * the MCP integration test, in which the example server reads the key back). The result is
 * the server's JSON as `callTool` would return it; `toMcpToolOutput` reads it defensively.
 */
function callToolWithMeta(client: MCPClient, call: ToolCall, meta: Record<string, string>) {
  const requesting = client as unknown as RequestingClient;
  if (typeof requesting.request !== 'function') return client.callTool(call);
  return requesting.request({
    request: {
      method: 'tools/call',
      params: { name: call.name, arguments: call.arguments ?? {}, _meta: meta },
    },
    resultSchema: { parse: (value) => value as CallToolResult },
    options: call.options,
  });
}

/** Lists every page of the server's tools. */
async function listAllTools(client: MCPClient, timeout: number): Promise<McpToolDefinition[]> {
  const tools: McpToolDefinition[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools({
      params: cursor === undefined ? undefined : { cursor },
      options: { timeout },
    });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

/**
 * The stdio transport with its close observed: the client takes over `onclose`, so a
 * wrapper forwards every event and also tells us when the server process exits.
 */
function observeClose(inner: StdioMCPTransport, onClose: () => void): MCPTransport {
  const outer: MCPTransport = {
    supportsProtocolVersionDiscovery: inner.supportsProtocolVersionDiscovery,
    start: () => inner.start(),
    send: (message) => inner.send(message),
    close: () => inner.close(),
  };
  inner.onmessage = (message) => outer.onmessage?.(message);
  inner.onerror = (error) => outer.onerror?.(error instanceof Error ? error : new Error(String(error)));
  inner.onclose = () => {
    outer.onclose?.();
    onClose();
  };
  return outer;
}

/** A JSON-RPC error answered by a live server (bad arguments, unknown tool): not a reason to reconnect. */
function isApplicationError(error: unknown): boolean {
  return typeof (error as { code?: unknown } | null)?.code === 'number';
}

function isConnectionRefused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown; cause?: { code?: unknown } } } | null)?.cause;
  return cause?.code === 'ECONNREFUSED' || cause?.cause?.code === 'ECONNREFUSED';
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const detail = cause instanceof Error && cause.message !== error.message ? `: ${cause.message}` : '';
    return `${error.message}${detail}`.slice(0, 300);
  }
  return String(error).slice(0, 300);
}
