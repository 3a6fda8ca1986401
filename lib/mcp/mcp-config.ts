import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { workerNames } from '@/lib/tools/worker-names';

// Letters and digits, single `-` or `_` between them: never `__`, which separates server and tool.
const serverNameSchema = z
  .string()
  .max(32, 'a server name has at most 32 characters')
  .regex(
    /^[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*$/,
    'a server name holds letters and digits, with single "-" or "_" between them',
  );

const workerSchema = z
  .string({ error: 'worker is required: the worker whose table gets this server’s tools' })
  .max(32, 'worker has at most 32 characters')
  .regex(/^[a-z][a-z0-9-]*$/, 'worker holds lowercase letters, digits and "-", starting with a letter')
  .refine((name) => name !== 'auto', '"auto" is not a worker: it means "let the router choose"');

const common = {
  worker: workerSchema,
  approval: z
    .enum(['auto', 'always', 'never'], { error: 'approval is "auto", "always" or "never"' })
    .default('auto'),
  /** Whether the server's answers may steer a write unseen: an outsider may write them unless the operator says so. */
  trust: z
    .enum(['trusted', 'untrusted'], { error: 'trust is "trusted" or "untrusted"' })
    .default('untrusted'),
};

const stdioServerSchema = z.strictObject({
  command: z.string().min(1, 'command is empty'),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  ...common,
});

const httpServerSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: 'url must be an http:// or https:// URL' }),
  headers: z.record(z.string(), z.string()).optional(),
  ...common,
});

// Chosen by key instead of z.union, so a mistake reads "servers.mail.worker: …" and not "no union member matched".
const serverSchema = z.unknown().transform((value, context) => {
  const entry = typeof value === 'object' && value !== null ? value : {};
  const isStdio = 'command' in entry;
  const isHttp = 'url' in entry;
  if (isStdio === isHttp) {
    context.addIssue({
      code: 'custom',
      message: isStdio
        ? 'give either command (stdio) or url (Streamable HTTP), not both'
        : 'needs command (a stdio server) or url (a Streamable HTTP server)',
    });
    return z.NEVER;
  }
  const parsed = (isStdio ? stdioServerSchema : httpServerSchema).safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) context.addIssue({ ...issue, code: 'custom' });
    return z.NEVER;
  }
  return parsed.data;
});

const mcpConfigSchema = z.strictObject({
  servers: z
    .record(serverNameSchema, serverSchema)
    .refine((servers) => Object.keys(servers).length > 0, 'servers is empty: name at least one server'),
  /** Waits between reconnection attempts to a server that went away: doubling from the first, capped. */
  reconnect: z
    .strictObject({
      initialDelayMs: z.number().int().positive().default(250),
      maxDelayMs: z.number().int().positive().default(10_000),
    })
    .default({ initialDelayMs: 250, maxDelayMs: 10_000 }),
  /** The most characters of one tool result handed to the model; the rest is cut. */
  maxOutputChars: z.number().int().positive().max(1_000_000).default(16_000),
});

/** One MCP server as configured: stdio (`command`) or Streamable HTTP (`url`). */
export type McpServerConfig = z.output<typeof stdioServerSchema> | z.output<typeof httpServerSchema>;

/** The parsed `MCP_CONFIG` file. */
export type McpConfig = Omit<z.output<typeof mcpConfigSchema>, 'servers'> & {
  servers: Record<string, McpServerConfig>;
};

/**
 * Reads and validates the `MCP_CONFIG` file. Returns the problems, each a sentence that
 * names the field, instead of throwing, so the start-up error lists them with the rest.
 */
export function readMcpConfig(path: string): { config: McpConfig } | { problems: string[] } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return { problems: [`MCP_CONFIG: cannot read "${path}": ${(error as Error).message}`] };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { problems: [`MCP_CONFIG: "${path}" is not valid JSON: ${(error as Error).message}`] };
  }
  const parsed = mcpConfigSchema.safeParse(json);
  if (!parsed.success) {
    return {
      problems: parsed.error.issues.map((issue) => {
        const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
        // A bad server name is reported as a bad record key; its own message says what a name may hold.
        const message =
          issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message;
        return `MCP_CONFIG "${path}": ${where}${message}`;
      }),
    };
  }
  return { config: parsed.data as McpConfig };
}

/** Every worker a turn can be routed or pinned to: the built-in four, then those MCP servers add. */
export function allWorkerNames(mcp: McpConfig | undefined): string[] {
  const added = Object.values(mcp?.servers ?? {}).map((server) => server.worker);
  return [...new Set<string>([...workerNames, ...added])];
}
