import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../lib/db/open-database';
import { startPostgresCluster } from '../../tests/support/postgres-cluster';
import { startApp } from '../support/next-app';
import { median, round } from '../support/stats';
import type { BenchCase, BenchResult } from '../support/types';
import { checkTurn, hammer, type Round, summarize, turnKinds } from './chat-throughput';

async function createDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Postgres beside the embedded SQLite, in one run: how long migrating and seeding an
 * empty database takes on each (median of several fresh databases), and chat turns per
 * second over HTTP with a write tool (every shell on) against a production server on
 * each. Both are reports, not targets: they say what moving to Postgres costs on one
 * machine, where the database shares two cores with the server and the load generator.
 */
export const databaseEngines: BenchCase = async ({ quick, scratch, log }) => {
  const cluster = await startPostgresCluster();
  try {
    const attempts = quick ? 2 : 5;
    const migrationMs = { sqlite: [] as number[], postgres: [] as number[] };
    for (let attempt = 0; attempt < attempts; attempt++) {
      for (const engine of ['sqlite', 'postgres'] as const) {
        const target =
          engine === 'sqlite'
            ? { path: join(scratch, `migrate-${attempt}.db`) }
            : { url: await createDatabase(cluster.url, `migrate_${attempt}`) };
        const started = performance.now();
        const db = await openDatabase(target);
        migrationMs[engine].push(performance.now() - started);
        await db.destroy();
      }
    }
    const rows: BenchResult[] = [
      {
        name: 'database/migrate-empty',
        baseline: { label: 'SQLite file', medianMs: round(median(migrationMs.sqlite)) },
        subject: { label: 'Postgres database', medianMs: round(median(migrationMs.postgres)) },
        ratio: round(median(migrationMs.postgres) / median(migrationMs.sqlite)),
        ratioOf: 'median ms to migrate and seed an empty database, Postgres ÷ SQLite',
        target: 'report',
        pass: null,
      },
    ];

    const kind = turnKinds.find((candidate) => candidate.name === 'write-tool');
    if (kind === undefined) throw new Error('chat-throughput has no write-tool turn');
    const environment = { AGENT_CONFIRM_TOOLS: '' };
    const servers = {
      sqlite: await startApp({ databasePath: join(scratch, 'engines.db'), environment }),
      postgres: await startApp({
        databasePath: join(scratch, 'engines-ignored.db'),
        environment: { ...environment, DATABASE_URL: await createDatabase(cluster.url, 'throughput') },
      }),
    };
    try {
      const engines = ['sqlite', 'postgres'] as const;
      for (const engine of engines) await checkTurn(servers[engine].url, '/api/chat', kind);
      for (const engine of engines) await hammer(servers[engine].url, '/api/chat', kind, 1);
      const order = quick ? engines : (['sqlite', 'postgres', 'postgres', 'sqlite'] as const);
      const roundsByEngine = { sqlite: [] as Round[], postgres: [] as Round[] };
      for (const engine of order) {
        log(`database engines: ${engine} write-tool turns`);
        roundsByEngine[engine].push(await hammer(servers[engine].url, '/api/chat', kind, quick ? 1 : 3));
      }
      const sqlite = summarize(roundsByEngine.sqlite);
      const postgres = summarize(roundsByEngine.postgres);
      const figures = (side: ReturnType<typeof summarize>) => ({
        requestsPerSecond: round(side.requestsPerSecond),
        p50Ms: round(side.p50),
        p99Ms: round(side.p99),
        failures: side.failures,
      });
      rows.push({
        name: 'database/chat-throughput-write',
        baseline: { label: '/api/chat on SQLite', ...figures(sqlite) },
        subject: { label: '/api/chat on Postgres', ...figures(postgres) },
        ratio: round(postgres.requestsPerSecond / sqlite.requestsPerSecond),
        ratioOf: 'write-tool turns/s, Postgres ÷ SQLite (10 connections, all shells)',
        target: 'report',
        pass: null,
      });
    } finally {
      await Promise.all([servers.sqlite.stop(), servers.postgres.stop()]);
    }
    return rows;
  } finally {
    cluster.destroy();
  }
};
