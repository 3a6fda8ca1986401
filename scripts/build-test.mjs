#!/usr/bin/env node
// Builds the production bundle the integration and e2e suites share (.next-test).
// The build runs with a canary OPENAI_API_KEY so a test can prove the key never
// reaches the client bundle; the servers the tests start get no key and use the
// offline model. It mounts the bench's comparison routes (TOOLGATE_BENCH_BUILD=1): `npm test`
// runs the bench's quick mode on this build instead of building twice.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const distDir = '.next-test';
const canary = `sk-toolgate-canary-${randomBytes(12).toString('hex')}`;

const result = spawnSync('node_modules/.bin/next', ['build'], {
  stdio: 'inherit',
  env: { ...process.env, NEXT_DIST_DIR: distDir, OPENAI_API_KEY: canary, TOOLGATE_BENCH_BUILD: '1' },
});
if (result.status !== 0) process.exit(result.status ?? 1);
writeFileSync(join(distDir, 'toolgate-canary.txt'), canary);
