import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

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
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/setup/redis-server.ts', 'tests/setup/postgres-server.ts'],
          setupFiles: ['tests/setup/same-start-each-file.ts'],
          testTimeout: 30_000,
          hookTimeout: 240_000,
          // A process per file (vitest's default). Sharing one (`isolate: false`) saved about
          // 150 s a run, but a one-second latency check of a production server ran past its budget
          // on a quiet machine (docs/testing.md). The setup file keeps the files independent
          // either way: the environment as the process started, delivery loops ended.
          restoreMocks: true,
          unstubEnvs: true,
          unstubGlobals: true,
        },
      },
    ],
  },
});
