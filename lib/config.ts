import { normalizeEmail } from '@toolgate/engine/client';
import { z } from 'zod';

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
 * `AGENT_CONFIRM_TOOLS`: comma-separated tool names, or undefined when unset (then the tools
 * whose facts say `confirmByDefault` ask: `confirmToolNamesOf` in lib/tools). The empty
 * string turns approvals off. The names are checked against the known tools at start-up
 * (lib/startup), once the MCP servers are known.
 */
const confirmTools = z
  .string()
  .optional()
  .transform((value): ReadonlySet<string> | undefined =>
    value === undefined
      ? undefined
      : new Set(
          value
            .split(',')
            .map((name) => name.trim())
            .filter((name) => name !== ''),
        ),
  );

/** Reads `"20/60s"` (calls per window: ms, s or m; seconds when no unit) or adds an issue. */
function parseRateLimit(name: string, value: string, context: z.RefinementCtx) {
  const match = /^(\d+)\s*\/\s*(\d+)\s*(ms|s|m)?$/.exec(value);
  const points = match ? Number(match[1]) : 0;
  if (!match || points <= 0 || Number(match[2]) <= 0) {
    context.addIssue({
      code: 'custom',
      message: `${name} must look like "20/60s" (calls per window), got "${value}"`,
    });
    return z.NEVER;
  }
  const unit = match[3] ?? 's';
  const windowMs = Number(match[2]) * (unit === 'ms' ? 1 : unit === 's' ? 1000 : 60_000);
  return { points, windowMs };
}

/** A rate limit that is off unless set. */
const rateLimitOf = (name: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value, context) =>
      value === undefined || value === '' ? undefined : parseRateLimit(name, value, context),
    );

/** A rate limit that is on unless the operator sets another budget (`"30/10m"`). */
const rateLimitWithDefault = (name: string, fallback: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value, context) => parseRateLimit(name, value || fallback, context));

/** `SMTP_URL`: `smtp://user:pass@host:587` or `smtps://…`, for verification mail. */
const smtpUrl = optionalText.refine((value) => value === undefined || /^smtps?:\/\//i.test(value), {
  message: 'SMTP_URL must be an smtp:// or smtps:// URL (e.g. smtps://user:password@mail.example.com:465)',
});

/** A rate limit that is on unless set to `off`: unset or empty means `fallback`. */
const defaultOnRateLimitOf = (name: string, fallback: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value): string | undefined => {
      if (value === undefined || value === '') return fallback;
      return value.toLowerCase() === 'off' ? undefined : value;
    })
    .pipe(rateLimitOf(name));

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

const environmentFields = z.object({
  AGENT_CONFIRM_TOOLS: confirmTools,
  /** The path of the JSON file of MCP servers, read and validated by lib/mcp (`getMcpConfig`). */
  MCP_CONFIG: optionalText,
  AGENT_CONFIRM_TIMEOUT_MS: positiveInteger('AGENT_CONFIRM_TIMEOUT_MS', 60_000),
  TOOLGATE_PARK_AFTER_MS: positiveInteger('TOOLGATE_PARK_AFTER_MS', 2_000),
  /** How long an approval event stream stays open before the browser reconnects and is checked again. */
  TOOLGATE_EVENT_STREAM_LIFE_MS: positiveInteger('TOOLGATE_EVENT_STREAM_LIFE_MS', 5 * 60_000),
  /** `off` stops tracing where write values came from (to measure without it); default on. */
  TOOLGATE_PROVENANCE: z
    .string()
    .trim()
    .optional()
    .transform((value, context) => {
      const normalized = (value ?? '').toLowerCase();
      if (normalized === '' || normalized === 'on') return 'on' as const;
      if (normalized === 'off') return 'off' as const;
      context.addIssue({ code: 'custom', message: `TOOLGATE_PROVENANCE must be on or off, got "${value}"` });
      return z.NEVER;
    }),
  IDEMPOTENCY_TTL_MS: positiveInteger('IDEMPOTENCY_TTL_MS', 600_000),
  IDEMPOTENCY_MAX_ENTRIES: positiveInteger('IDEMPOTENCY_MAX_ENTRIES', 500),
  AGENT_TOOL_RATE_LIMIT: rateLimitOf('AGENT_TOOL_RATE_LIMIT'),
  TOOLGATE_GUEST_RATE_LIMIT: rateLimitWithDefault('TOOLGATE_GUEST_RATE_LIMIT', '30/10m'),
  TOOLGATE_SIGNIN_RATE_LIMIT: rateLimitWithDefault('TOOLGATE_SIGNIN_RATE_LIMIT', '30/10m'),
  TOOLGATE_SIGNIN_FAILURE_LIMIT: rateLimitWithDefault('TOOLGATE_SIGNIN_FAILURE_LIMIT', '10/15m'),
  TOOLGATE_VERIFICATION_MAIL_LIMIT: rateLimitWithDefault('TOOLGATE_VERIFICATION_MAIL_LIMIT', '5/60m'),
  SMTP_URL: smtpUrl,
  SMTP_FROM: optionalText.transform((value) => value ?? 'Toolgate <no-reply@localhost>'),
  TOOLGATE_ALLOW_UNVERIFIED_SIGNUP: flag('TOOLGATE_ALLOW_UNVERIFIED_SIGNUP'),
  TOOLGATE_TURN_RATE_LIMIT: rateLimitOf('TOOLGATE_TURN_RATE_LIMIT'),
  TOOLGATE_USER_TURN_RATE_LIMIT: defaultOnRateLimitOf('TOOLGATE_USER_TURN_RATE_LIMIT', '30/60s'),
  TOOLGATE_MAX_PENDING_APPROVALS: positiveInteger('TOOLGATE_MAX_PENDING_APPROVALS', 20),
  DATABASE_PATH: optionalText.transform((value) => value ?? '.data/toolgate.db'),
  DATABASE_URL: optionalText.refine((value) => value === undefined || /^postgres(ql)?:\/\//i.test(value), {
    message:
      'DATABASE_URL must be a postgres:// or postgresql:// URL (unset it to use the embedded SQLite file)',
  }),
  DATABASE_POOL_SIZE: positiveInteger('DATABASE_POOL_SIZE', 10),
  DATABASE_STATEMENT_TIMEOUT_MS: positiveInteger('DATABASE_STATEMENT_TIMEOUT_MS', 10_000),
  REDIS_URL: optionalText,
  OPENAI_API_KEY: optionalText,
  OPENAI_MODEL: optionalText.transform((value) => value ?? 'gpt-4o-mini'),
  OPENAI_BASE_URL: optionalText,
  AI_MODEL: z
    .enum(['offline', 'openai', ''])
    .optional()
    .transform((value) => (value === '' ? undefined : value)),
  BETTER_AUTH_SECRET: optionalText.refine((value) => value === undefined || value.length >= 32, {
    message: 'BETTER_AUTH_SECRET must be at least 32 characters (e.g. `openssl rand -base64 32`)',
  }),
  BETTER_AUTH_URL: optionalText,
  TOOLGATE_ADMIN_EMAILS: z
    .string()
    .optional()
    .transform(
      (value) =>
        new Set(
          (value ?? '')
            .split(',')
            .map(normalizeEmail)
            .filter((email) => email !== ''),
        ),
    ),
  OFFLINE_MODEL_DELAY_MS: nonNegativeInteger('OFFLINE_MODEL_DELAY_MS', 15),
  TOOLGATE_TRUST_PROXY: flag('TOOLGATE_TRUST_PROXY'),
  TOOLGATE_ALLOWED_IMAGE_ORIGINS: imageOrigins,
  // OpenTelemetry's own variables: the exporter also reads them (and OTEL_EXPORTER_OTLP_HEADERS),
  // so they are checked here only so a typo fails at start-up instead of dropping every trace.
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalText.refine(
    (value) => value === undefined || /^https?:\/\//i.test(value),
    {
      message: 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL such as http://localhost:4318',
    },
  ),
  OTEL_EXPORTER_OTLP_PROTOCOL: z
    .string()
    .optional()
    .transform((value, context) => {
      const protocol = value === undefined || value.trim() === '' ? 'http/protobuf' : value.trim();
      if (protocol === 'http/protobuf' || protocol === 'http/json') return protocol;
      context.addIssue({
        code: 'custom',
        message: `OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (grpc is not supported), got "${value}"`,
      });
      return z.NEVER;
    }),
  TOOLGATE_METRICS_TOKEN: optionalText.refine((value) => value === undefined || value.length >= 16, {
    message: 'TOOLGATE_METRICS_TOKEN must be at least 16 characters (e.g. `openssl rand -hex 32`)',
  }),
  /** The path of the JSON file of approval rules and roles, read and validated by lib/policy. */
  TOOLGATE_POLICY: optionalText,
  // Approval webhooks (lib/webhooks): where approvals with a role step are POSTed, and the
  // HMAC key of their signature. A plain http(s) URL; the secret is checked below.
  TOOLGATE_APPROVAL_WEBHOOK_URL: optionalText.refine(
    (value) => {
      if (value === undefined) return true;
      try {
        return /^https?:$/.test(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    {
      message:
        'TOOLGATE_APPROVAL_WEBHOOK_URL must be an http:// or https:// URL such as https://hooks.example.com/toolgate',
    },
  ),
  TOOLGATE_WEBHOOK_USER_LIMIT: defaultOnRateLimitOf('TOOLGATE_WEBHOOK_USER_LIMIT', '20/10m'),
  TOOLGATE_WEBHOOK_ADDRESS_LIMIT: defaultOnRateLimitOf('TOOLGATE_WEBHOOK_ADDRESS_LIMIT', '100/10m'),
  TOOLGATE_WEBHOOK_RETENTION_MS: positiveInteger('TOOLGATE_WEBHOOK_RETENTION_MS', 7 * 24 * 60 * 60 * 1000),
  TOOLGATE_WEBHOOK_SECRET: optionalText.refine((value) => value === undefined || value.length >= 16, {
    message: 'TOOLGATE_WEBHOOK_SECRET must be at least 16 characters (e.g. `openssl rand -hex 32`)',
  }),
  TOOLGATE_UNDO_WINDOW_MS: positiveInteger('TOOLGATE_UNDO_WINDOW_MS', 30_000),
  // Test-only fault injection; honoured only together with TOOLGATE_TESTING=1 (checked below).
  TOOLGATE_TESTING: flag('TOOLGATE_TESTING'),
  TOOLGATE_FAULT: optionalText.pipe(
    z
      .enum(['crash-after-effect', 'slow-preview', 'failing-preview'], {
        error: (issue) =>
          `TOOLGATE_FAULT must be crash-after-effect, slow-preview or failing-preview (or unset), got "${String(issue.input)}"`,
      })
      .optional(),
  ),
});

// Checked once every field is parsed: variables that only make sense together.
const environmentSchema = environmentFields.superRefine((config, context) => {
  // A mailed link must point at the public address; one derived from a request could name
  // whatever host a client wrote, and a token sent there verifies someone else's email.
  if (config.SMTP_URL !== undefined && config.BETTER_AUTH_URL === undefined) {
    context.addIssue({
      code: 'custom',
      message:
        'SMTP_URL needs BETTER_AUTH_URL (the public URL of this deployment, e.g. https://chat.example.com): verification links are built from it',
    });
  }
  // Unsigned, a receiver could not tell a delivery from a forgery sent to its address.
  if (config.TOOLGATE_APPROVAL_WEBHOOK_URL !== undefined && config.TOOLGATE_WEBHOOK_SECRET === undefined) {
    context.addIssue({
      code: 'custom',
      message:
        'TOOLGATE_APPROVAL_WEBHOOK_URL needs TOOLGATE_WEBHOOK_SECRET (16 or more characters, e.g. `openssl rand -hex 32`): every delivery is signed with it',
    });
  }
  // A fault left set in production would kill the server after every write.
  if (config.TOOLGATE_FAULT !== undefined && !config.TOOLGATE_TESTING) {
    context.addIssue({
      code: 'custom',
      message: `TOOLGATE_FAULT=${config.TOOLGATE_FAULT} is a test-only fault and needs TOOLGATE_TESTING=1; unset it outside tests`,
    });
  }
});

export type AppConfig = z.output<typeof environmentSchema>;

/** Thrown at start-up for a configuration that must not run. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The problems of a configuration, listed one a line, as one error. */
export function configErrorOf(problems: readonly string[]): ConfigError {
  return new ConfigError(
    `Invalid Toolgate configuration:\n${problems.map((problem) => `- ${problem}`).join('\n')}`,
  );
}

/** Parses configuration from an environment object, or lists every problem of it. */
export function tryParseConfig(
  environment: Record<string, string | undefined>,
): { config: AppConfig } | { problems: string[] } {
  const result = environmentSchema.safeParse(environment);
  if (result.success) return { config: result.data };
  return { problems: result.error.issues.map((issue) => issue.message) };
}

/** Parses configuration from an environment object; throws `ConfigError` listing every problem. */
export function parseConfig(environment: Record<string, string | undefined>): AppConfig {
  const result = tryParseConfig(environment);
  if ('problems' in result) throw configErrorOf(result.problems);
  return result.config;
}

const toolSettingsSchema = environmentFields.pick({
  AGENT_CONFIRM_TOOLS: true,
  MCP_CONFIG: true,
  TOOLGATE_POLICY: true,
});

/**
 * The variables that name tools and files (never wrong on their own), so the start-up
 * check reads the files and names even when another variable is wrong, and lists it all.
 */
export function toolSettingsOf(
  environment: Record<string, string | undefined>,
): Pick<AppConfig, 'AGENT_CONFIRM_TOOLS' | 'MCP_CONFIG' | 'TOOLGATE_POLICY'> {
  return toolSettingsSchema.parse(environment);
}

const globalForConfig = globalThis as typeof globalThis & { __toolgateConfig?: AppConfig };

/** The process configuration, parsed once from `process.env`. */
export function getConfig(): AppConfig {
  globalForConfig.__toolgateConfig ??= parseConfig(process.env);
  return globalForConfig.__toolgateConfig;
}

/** A test-only fault (`TOOLGATE_FAULT`). */
export type TestFault = NonNullable<AppConfig['TOOLGATE_FAULT']>;

/**
 * The one seam of fault injection: the fault `TOOLGATE_FAULT` asks for, honoured only with
 * `TOOLGATE_TESTING=1` (start-up refuses it otherwise), so a production process never has one.
 */
export function testFault(
  config: Pick<AppConfig, 'TOOLGATE_TESTING' | 'TOOLGATE_FAULT'> = getConfig(),
): TestFault | undefined {
  return config.TOOLGATE_TESTING ? config.TOOLGATE_FAULT : undefined;
}
