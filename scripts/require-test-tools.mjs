#!/usr/bin/env node
// The test suites use a real Chromium and a real redis-server. When one is missing,
// stop at once and say how to install it: never skip those suites silently.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

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

if (missing.length > 0) {
  console.error('The tests need tools that are not installed:\n');
  for (const line of missing) console.error(`- ${line}`);
  process.exit(1);
}
