import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from '../support/free-port';
import { isExecutable } from '../support/is-executable';

const installHint =
  'Install it (Debian/Ubuntu: `apt-get install -y redis-server`; macOS: `brew install redis`) ' +
  'or point REDIS_SERVER_PATH at the binary. The Redis suites never skip.';

/**
 * Vitest globalSetup: starts a private `redis-server` on a free 127.0.0.1 port
 * with persistence off, waits until it answers PING, and hands its URL to the
 * tests (`inject('redisUrl')`, and `process.env.TEST_REDIS_URL`). The returned
 * teardown stops it. Fails, never skips, when the binary is missing.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const binary = findRedisServer();
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-redis-'));
  let lastError: unknown;
  // A free port can be taken between probing and binding; try a few.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const port = await freePort();
    const server = spawn(
      binary,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dataDir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const output: string[] = [];
    server.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    try {
      await waitForPong(port, server, 5_000);
    } catch (error) {
      lastError = new Error(
        `redis-server did not start on port ${port}: ${(error as Error).message}\n${output.join('')}`,
      );
      await stop(server);
      continue;
    }
    const url = `redis://127.0.0.1:${port}`;
    project.provide('redisUrl', url);
    process.env.TEST_REDIS_URL = url;
    return async () => {
      await stop(server);
      rmSync(dataDir, { recursive: true, force: true });
    };
  }
  rmSync(dataDir, { recursive: true, force: true });
  throw lastError;
}

function findRedisServer(): string {
  const configured = process.env.REDIS_SERVER_PATH;
  if (configured) {
    if (isExecutable(configured)) return configured;
    throw new Error(`REDIS_SERVER_PATH=${configured} is not an executable file. ${installHint}`);
  }
  const directories = [
    ...(process.env.PATH ?? '').split(delimiter),
    '/usr/bin',
    '/usr/sbin',
    '/usr/local/bin',
  ];
  for (const directory of directories) {
    if (directory === '') continue;
    const candidate = join(directory, 'redis-server');
    if (isExecutable(candidate)) return candidate;
  }
  throw new Error(`redis-server was not found on PATH. ${installHint}`);
}

/** Sends a raw RESP PING until the server answers +PONG, the process exits, or time runs out. */
async function waitForPong(port: number, server: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`exited with code ${server.exitCode}`);
    if (await ping(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no PONG within ${timeoutMs} ms`);
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

async function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  server.kill('SIGTERM');
  const timer = setTimeout(() => server.kill('SIGKILL'), 3_000);
  await exited;
  clearTimeout(timer);
}
