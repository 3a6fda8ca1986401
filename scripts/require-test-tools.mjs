#!/usr/bin/env node
// The test suites use a real Chromium, a real redis-server and a real PostgreSQL server. When one is missing,
// stop at once and say how to install it: never skip those suites silently.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';

function which(command) {
  try {
    return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

const missing = [];

const chromium =
  process.env.CHROMIUM_PATH ||
  which('chromium') ||
  which('chromium-browser') ||
  which('google-chrome') ||
  null;
if (!chromium || !existsSync(chromium)) {
  missing.push(
    'Chromium was not found. On Debian/Ubuntu: `sudo apt-get install -y chromium`;\n' +
      '  elsewhere set CHROMIUM_PATH to a Chrome/Chromium binary (a Playwright-installed browser is fine).',
  );
}

const redis = process.env.REDIS_SERVER_PATH || which('redis-server');
if (!redis) {
  missing.push(
    'redis-server was not found. On Debian/Ubuntu: `sudo apt-get install -y redis-server`;\n' +
      '  elsewhere install Redis and put redis-server on PATH (or set REDIS_SERVER_PATH).',
  );
}

const postgresBinDir =
  process.env.POSTGRES_BIN_DIR ||
  (existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .map((version) => `/usr/lib/postgresql/${version}/bin`)
        .find((folder) => existsSync(`${folder}/initdb`))
    : undefined) ||
  (which('initdb') ? dirname(which('initdb')) : undefined);
if (!postgresBinDir || !existsSync(`${postgresBinDir}/initdb`)) {
  missing.push(
    "PostgreSQL's server (initdb, pg_ctl) was not found. On Debian/Ubuntu: `sudo apt-get install -y postgresql`;\n" +
      '  elsewhere install PostgreSQL and put its bin folder on PATH (or set POSTGRES_BIN_DIR).',
  );
}

if (missing.length > 0) {
  console.error('The tests need tools that are not installed:\n');
  for (const line of missing) console.error(`- ${line}`);
  process.exit(1);
}
