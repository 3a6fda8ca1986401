import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resetConfig } from '@/lib/config';

const singletonKeys = ['__toolgateIdempotencyStore', '__toolgateApprovalRegistry', '__toolgateRateLimiter'];

/**
 * Points the server code at a fresh SQLite file and the given environment, and
 * forgets the process singletons so the next request builds them from it.
 * Returns the database path.
 */
export function configureServer(environment: Record<string, string | undefined> = {}): string {
  const databasePath = join(mkdtempSync(join(tmpdir(), 'toolgate-test-')), 'toolgate.db');
  const defaults: Record<string, string | undefined> = {
    DATABASE_PATH: databasePath,
    AI_MODEL: 'offline',
    OFFLINE_MODEL_DELAY_MS: '0',
    AGENT_CONFIRM_TOOLS: undefined,
    AGENT_CONFIRM_TIMEOUT_MS: undefined,
    AGENT_TOOL_RATE_LIMIT: undefined,
    REDIS_URL: undefined,
    OPENAI_API_KEY: undefined,
    OPENAI_BASE_URL: undefined,
    TOOLGATE_TRUST_PROXY: undefined,
    TOOLGATE_ALLOWED_IMAGE_ORIGINS: undefined,
  };
  for (const [key, value] of Object.entries({ ...defaults, ...environment })) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  resetConfig();
  const globals = globalThis as Record<string, unknown>;
  for (const key of singletonKeys) delete globals[key];
  return process.env.DATABASE_PATH as string;
}
