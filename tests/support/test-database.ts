import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DatabaseEngine, Db } from '@/lib/db/engine';
import { openDatabase } from '@/lib/db/open-database';

/** Both engines, for `describe.each`: every database suite runs on each. */
export const databaseEngines: readonly DatabaseEngine[] = ['sqlite', 'postgres'];

/** The admin URL of the run's throwaway Postgres cluster (tests/setup/postgres-server.ts). */
export function postgresAdminUrl(): string {
  const url = process.env.TEST_POSTGRES_URL;
  if (url === undefined)
    throw new Error('TEST_POSTGRES_URL is not set: the Postgres globalSetup did not run');
  return url;
}

/** Where a new, empty database of `engine` lives, and how to remove it. */
export type EmptyDatabase = {
  engine: DatabaseEngine;
  /** `postgres://…` for Postgres, undefined for SQLite. */
  url?: string;
  /** The SQLite file (for Postgres, unused). */
  path: string;
  /** Server environment that points the app at it. */
  environment: Record<string, string | undefined>;
  drop: () => Promise<void>;
};

/** A fresh, empty database: a new file for SQLite, a new database in the test cluster for Postgres. */
export async function createEmptyDatabase(engine: DatabaseEngine): Promise<EmptyDatabase> {
  const folder = mkdtempSync(join(tmpdir(), 'toolgate-db-'));
  const path = join(folder, 'toolgate.db');
  if (engine === 'sqlite') {
    return {
      engine,
      path,
      environment: { DATABASE_PATH: path, DATABASE_URL: undefined },
      drop: async () => rmSync(folder, { recursive: true, force: true }),
    };
  }
  const name = `toolgate_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(postgresAdminUrl());
  url.pathname = `/${name}`;
  return {
    engine,
    url: url.toString(),
    path,
    environment: { DATABASE_URL: url.toString(), DATABASE_PATH: path },
    drop: async () => {
      const client = new pg.Client({ connectionString: postgresAdminUrl() });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}

/** Opens (migrating and seeding) a fresh database of `engine`; `close` destroys it. */
export async function openTestDatabase(
  engine: DatabaseEngine,
): Promise<{ db: Db; target: EmptyDatabase; close: () => Promise<void> }> {
  const target = await createEmptyDatabase(engine);
  const db = await openDatabase({ url: target.url, path: target.path });
  return {
    db,
    target,
    close: async () => {
      await db.destroy();
      await target.drop();
    },
  };
}
