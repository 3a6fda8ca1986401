import { z } from 'zod';

/** Every tool the product knows; `AGENT_CONFIRM_TOOLS` may only name these. */
export const knownToolNames = [
  'getOrderStatus',
  'createTicket',
  'searchKnowledgeBase',
  'addTodo',
  'listTodos',
] as const;

export type ToolName = (typeof knownToolNames)[number];

const positiveInteger = (name: string, fallback: number) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value, context) => {
      if (value === undefined || value === '') return fallback;
      const parsed = Number(value);
      if (!Number.isInteger(parsed) || parsed <= 0) {
        context.addIssue({ code: 'custom', message: `${name} must be a positive integer, got "${value}"` });
        return z.NEVER;
      }
      return parsed;
    });

const nonNegativeInteger = (name: string, fallback: number) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value, context) => {
      if (value === undefined || value === '') return fallback;
      const parsed = Number(value);
      if (!Number.isInteger(parsed) || parsed < 0) {
        context.addIssue({
          code: 'custom',
          message: `${name} must be a non-negative integer, got "${value}"`,
        });
        return z.NEVER;
      }
      return parsed;
    });

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value === undefined || value === '' ? undefined : value));

/**
 * `AGENT_CONFIRM_TOOLS`: comma-separated tool names. Absent means `createTicket`;
 * the empty string turns approvals off. An unknown name is a start-up error that
 * lists the known tools, so a typo can never silently turn approval off.
 */
const confirmTools = z
  .string()
  .optional()
  .transform((value, context) => {
    if (value === undefined) return new Set<ToolName>(['createTicket']);
    const names = value
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '');
    const unknown = names.filter((name) => !(knownToolNames as readonly string[]).includes(name));
    if (unknown.length > 0) {
      context.addIssue({
        code: 'custom',
        message: `AGENT_CONFIRM_TOOLS names unknown tool(s) ${unknown.map((name) => `"${name}"`).join(', ')}; known tools: ${knownToolNames.join(', ')}`,
      });
      return z.NEVER;
    }
    return new Set(names as ToolName[]);
  });

const rateLimit = z
  .string()
  .trim()
  .optional()
  .transform((value, context) => {
    if (value === undefined || value === '') return undefined;
    const match = /^(\d+)\s*\/\s*(\d+)\s*(ms|s|m)?$/.exec(value);
    const points = match ? Number(match[1]) : 0;
    if (!match || points <= 0 || Number(match[2]) <= 0) {
      context.addIssue({
        code: 'custom',
        message: `AGENT_TOOL_RATE_LIMIT must look like "20/60s" (calls per window), got "${value}"`,
      });
      return z.NEVER;
    }
    const unit = match[3] ?? 's';
    const windowMs = Number(match[2]) * (unit === 'ms' ? 1 : unit === 's' ? 1000 : 60_000);
    return { points, windowMs };
  });

/** `TOOLGATE_TRUST_PROXY`: `1` / `true` when a reverse proxy in front sets `X-Forwarded-*` honestly. */
const flag = (name: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value, context) => {
      if (value === undefined || value === '' || value === '0' || value === 'false') return false;
      if (value === '1' || value === 'true') return true;
      context.addIssue({ code: 'custom', message: `${name} must be 1 or 0, got "${value}"` });
      return z.NEVER;
    });

/**
 * `TOOLGATE_ALLOWED_IMAGE_ORIGINS`: comma-separated origins (`https://cdn.example.com`)
 * whose images model text may show, besides this site's own. Anything with a path,
 * or not http(s), is a start-up error: a prefix that matched more than meant would
 * reopen the leak the allowlist closes.
 */
const imageOrigins = z
  .string()
  .optional()
  .transform((value, context) => {
    const origins: string[] = [];
    for (const entry of (value ?? '').split(',')) {
      const text = entry.trim();
      if (text === '') continue;
      let url: URL | undefined;
      try {
        url = new URL(text);
      } catch {}
      if (url === undefined || !/^https?:$/.test(url.protocol) || text.replace(/\/$/, '') !== url.origin) {
        context.addIssue({
          code: 'custom',
          message: `TOOLGATE_ALLOWED_IMAGE_ORIGINS entries must be origins such as https://cdn.example.com, got "${text}"`,
        });
        return z.NEVER;
      }
      origins.push(url.origin);
    }
    return origins;
  });

const environmentSchema = z.object({
  AGENT_CONFIRM_TOOLS: confirmTools,
  AGENT_CONFIRM_TIMEOUT_MS: positiveInteger('AGENT_CONFIRM_TIMEOUT_MS', 60_000),
  IDEMPOTENCY_TTL_MS: positiveInteger('IDEMPOTENCY_TTL_MS', 600_000),
  IDEMPOTENCY_MAX_ENTRIES: positiveInteger('IDEMPOTENCY_MAX_ENTRIES', 500),
  AGENT_TOOL_RATE_LIMIT: rateLimit,
  DATABASE_PATH: optionalText.transform((value) => value ?? '.data/toolgate.db'),
  REDIS_URL: optionalText,
  OPENAI_API_KEY: optionalText,
  OPENAI_MODEL: optionalText.transform((value) => value ?? 'gpt-4o-mini'),
  OPENAI_BASE_URL: optionalText,
  AI_MODEL: z
    .enum(['offline', 'openai', ''])
    .optional()
    .transform((value) => (value === '' ? undefined : value)),
  OFFLINE_MODEL_DELAY_MS: nonNegativeInteger('OFFLINE_MODEL_DELAY_MS', 15),
  TOOLGATE_TRUST_PROXY: flag('TOOLGATE_TRUST_PROXY'),
  TOOLGATE_ALLOWED_IMAGE_ORIGINS: imageOrigins,
  TOOLGATE_BENCH_BASELINE: z
    .string()
    .optional()
    .transform((value) => value === '1'),
});

export type AppConfig = z.output<typeof environmentSchema>;

/** Thrown at start-up for a configuration that must not run. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses configuration from an environment object; throws `ConfigError` listing every problem. */
export function parseConfig(environment: Record<string, string | undefined>): AppConfig {
  const result = environmentSchema.safeParse(environment);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `- ${issue.message}`).join('\n');
    throw new ConfigError(`Invalid Toolgate configuration:\n${problems}`);
  }
  return result.data;
}

const globalForConfig = globalThis as typeof globalThis & { __toolgateConfig?: AppConfig };

/** The process configuration, parsed once from `process.env`. */
export function getConfig(): AppConfig {
  globalForConfig.__toolgateConfig ??= parseConfig(process.env);
  return globalForConfig.__toolgateConfig;
}

/** Forgets the parsed configuration (tests that change `process.env`). */
export function resetConfig(): void {
  globalForConfig.__toolgateConfig = undefined;
}
