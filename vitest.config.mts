import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import type { ProjectConfig } from 'vitest/node';

const root = fileURLToPath(new URL('.', import.meta.url));

const shared = {
  resolve: {
    alias: {
      '@': root,
      // `server-only` throws outside a React Server environment; tests run the server code directly.
      'server-only': fileURLToPath(new URL('./node_modules/server-only/empty.js', import.meta.url)),
    },
  },
};

/** What every integration file gets: SQLite and Postgres, Redis, production builds of the app. */
const integration = {
  include: ['tests/integration/**/*.test.ts'],
  environment: 'node',
  globalSetup: ['tests/setup/redis-server.ts', 'tests/setup/postgres-server.ts'],
  setupFiles: ['tests/setup/same-start-each-file.ts'],
  testTimeout: 30_000,
  hookTimeout: 240_000,
  // A process per file (vitest's default). Sharing one (`isolate: false`) saved about 150 s a
  // run, but a one-second latency check of a production server ran past its budget on a quiet
  // machine (docs/testing.md). The setup file keeps the files independent either way: the
  // environment as the process started, delivery loops ended.
  restoreMocks: true,
  unstubEnvs: true,
  unstubGlobals: true,
} satisfies ProjectConfig;

/** Files whose tests hold a server to a time budget (another user answered within 1 s, a list as fast with 200 streams open). */
const timedFiles = [
  'tests/integration/http-hygiene.test.ts',
  'tests/integration/approval-event-streams.test.ts',
];

export default defineConfig({
  ...shared,
  test: {
    // A busy 2-core machine can take more than the default 10 s to wind a worker down.
    teardownTimeout: 60_000,
    projects: [
      {
        ...shared,
        test: {
          name: 'engine',
          include: ['tests/engine/**/*.test.ts'],
          environment: 'node',
          // One process for the files, not one each: most of a file's time was importing.
          isolate: false,
          restoreMocks: true,
          unstubEnvs: true,
          unstubGlobals: true,
        },
      },
      {
        ...shared,
        test: {
          name: 'redis',
          include: ['tests/redis/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/setup/redis-server.ts'],
          fileParallelism: false,
          isolate: false,
          restoreMocks: true,
        },
      },
      {
        ...shared,
        test: {
          ...integration,
          name: 'integration',
          exclude: [...configDefaults.exclude, ...timedFiles],
          // Two files at a time: a file mostly waits on servers, databases and the clock, and each
          // makes its own databases, Redis keys and ports, so two share nothing (docs/testing.md).
          maxWorkers: 2,
        },
      },
      {
        ...shared,
        test: {
          ...integration,
          name: 'integration-timed',
          include: timedFiles,
          // After the others, one file at a time, so a time budget measures the code, not a neighbour.
          sequence: { groupOrder: 1 },
          fileParallelism: false,
        },
      },
    ],
  },
});
