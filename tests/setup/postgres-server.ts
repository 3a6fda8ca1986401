import type { TestProject } from 'vitest/node';
import { startPostgresCluster } from '../support/postgres-cluster';

/**
 * Vitest globalSetup: starts the run's throwaway cluster and hands its admin URL to the
 * tests (`inject('postgresUrl')` and `process.env.TEST_POSTGRES_URL`); each suite creates
 * databases of its own in it. Fails, never skips, when PostgreSQL is not installed.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startPostgresCluster();
  project.provide('postgresUrl', cluster.url);
  process.env.TEST_POSTGRES_URL = cluster.url;
  return async () => cluster.destroy();
}
