import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resetConfig } from '@/lib/config';
import type { DatabaseEngine } from '@/lib/db/engine';
import { createEmptyDatabase } from './test-database';

const singletonKeys = [
  '__toolgateIdempotencyStore',
  '__toolgateApprovalRegistry',
  '__toolgateRateLimiter',
  '__toolgateStreamContext',
  '__toolgateRunningTurns',
];

/**
 * Points the server code at a fresh SQLite file and the given environment, and
 * forgets the process singletons so the next request builds them from it.
 * Returns the database path.
 */
export function configureServer(environment: Record<string, string | undefined> = {}): string {
  const databasePath = join(mkdtempSync(join(tmpdir(), 'toolgate-test-')), 'toolgate.db');
  const defaults: Record<string, string | undefined> = {
    DATABASE_PATH: databasePath,
    DATABASE_URL: undefined,
    AI_MODEL: 'offline',
    OFFLINE_MODEL_DELAY_MS: '0',
    AGENT_CONFIRM_TOOLS: undefined,
    AGENT_CONFIRM_TIMEOUT_MS: undefined,
    AGENT_TOOL_RATE_LIMIT: undefined,
    REDIS_URL: undefined,
    OPENAI_API_KEY: undefined,
    OPENAI_BASE_URL: undefined,
  };
  for (const [key, value] of Object.entries({ ...defaults, ...environment })) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  resetConfig();
  const globals = globalThis as Record<string, unknown>;
  for (const key of singletonKeys) delete globals[key];
  // Close the previous test's connections: a Postgres pool left open holds its sockets.
  const databases = globals.__toolgateDatabases as
    | Map<string, Promise<{ destroy(): Promise<void> }>>
    | undefined;
  for (const db of databases?.values() ?? []) db.then((open) => open.destroy()).catch(() => undefined);
  databases?.clear();
  return process.env.DATABASE_PATH as string;
}

/**
 * `configureServer` on a fresh database of `engine`: a new SQLite file, or a new database
 * in the run's throwaway Postgres cluster.
 */
export async function configureServerOn(
  engine: DatabaseEngine,
  environment: Record<string, string | undefined> = {},
): Promise<void> {
  const target = await createEmptyDatabase(engine);
  configureServer({ ...target.environment, ...environment });
}
