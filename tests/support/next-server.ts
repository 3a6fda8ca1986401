import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './free-port';

/** The production build the integration and e2e suites share (`npm run build:test`). */
export const testDistDir = '.next-test';

export { freePort };

/** A `next start` process serving the test build. */
/** The session secret every test server shares, so servers on one database accept each other's cookies. */
export const testAuthSecret = 'test-secret-that-is-long-enough-for-better-auth';

export type NextServer = { url: string; port: number; process: ChildProcess; stop: () => Promise<void> };

/**
 * Starts a production server from the test build with the given environment and
 * waits until it answers. Fails at once when the build is missing, rather than
 * timing out.
 */
export async function startNextServer(
  environment: Record<string, string>,
  port?: number,
): Promise<NextServer> {
  if (!existsSync(join(testDistDir, 'BUILD_ID'))) {
    throw new Error(
      `No production build in ${testDistDir}: run \`npm run build:test\` first (npm test does).`,
    );
  }
  const chosenPort = port ?? (await freePort());
  const child = spawn('node_modules/.bin/next', ['start', '-p', String(chosenPort), '-H', '127.0.0.1'], {
    env: {
      ...process.env,
      NEXT_DIST_DIR: testDistDir,
      NODE_ENV: 'production',
      BETTER_AUTH_SECRET: testAuthSecret,
      // Every suite's guests and sign-ins come from 127.0.0.1; tests of the limits set their own.
      TOOLGATE_GUEST_RATE_LIMIT: '100000/1m',
      TOOLGATE_SIGNIN_RATE_LIMIT: '100000/1m',
      TOOLGATE_SIGNIN_FAILURE_LIMIT: '100000/1m',
      TOOLGATE_VERIFICATION_MAIL_LIMIT: '100000/1m',
      // Suites drive many turns as one guest; a test of the limit sets it.
      TOOLGATE_USER_TURN_RATE_LIMIT: 'off',
      ...environment,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (data) => {
    output += data;
  });
  child.stderr?.on('data', (data) => {
    output += data;
  });
  const url = `http://127.0.0.1:${chosenPort}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}:\n${output}`);
    try {
      // Any answer but a server error means it is serving (the API answers 401 without a session).
      const response = await fetch(`${url}/api/meta`);
      if (response.status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`next start did not answer within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const stop = async () => {
    // A process killed by a signal has no exit code, only a signal code: it has exited too.
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  return { url, port: chosenPort, process: child, stop };
}
