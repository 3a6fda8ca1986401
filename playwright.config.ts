import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/**
 * e2e against a production build with the offline model at zero delay.
 *
 * Three servers run from one build: the main one with the default 60 s approval
 * timeout, one with a 3 s timeout for the expiry test, and one with the example
 * MCP server and an approval policy configured (a ticket titled "需要主管" waits for a
 * supervisor; env is read at run time, so one build serves all).
 * Each run gets fresh SQLite files.
 */

// The build `npm run build:test` makes; E2E_DIST_DIR lets a developer keep a private one.
const distDir = process.env.E2E_DIST_DIR ?? '.next-test';
const mainPort = Number(process.env.E2E_PORT ?? 3107);
const shortTimeoutPort = mainPort + 1;
const mcpPort = mainPort + 2;
const dataDir = '.data';
// Wide enough for all three columns (chats, conversation, tickets and todos).
const viewport = { width: 1440, height: 900 };

// The config is evaluated again in every worker process; the env carries the first run id over.
process.env.E2E_RUN_ID ??= String(Date.now());
const runId = process.env.E2E_RUN_ID;

function removeOldDatabases() {
  mkdirSync(dataDir, { recursive: true });
  for (const name of readdirSync(dataDir)) {
    if (name.startsWith('e2e-') && !name.startsWith(`e2e-${runId}`))
      rmSync(join(dataDir, name), { force: true });
  }
}
removeOldDatabases();

// The MCP server's config: the example notes server over stdio, its tools in a worker of their own.
const mcpConfigPath = join(dataDir, `e2e-${runId}-mcp.json`);
writeFileSync(
  mcpConfigPath,
  JSON.stringify({
    servers: {
      notes: {
        command: process.execPath,
        args: [resolve('examples/mcp-server/notes-server.mjs')],
        worker: 'notes',
      },
    },
  }),
);

// The approvers spec's policy: a ticket titled "需要主管" waits for a supervisor.
const policyPath = resolve('e2e/approvers-policy.json');
// The approvers spec runs the operators' CLI against the database of the server with the policy.
process.env.E2E_APPROVERS_DATABASE_PATH = join(dataDir, `e2e-${runId}-mcp.db`);

const sourceRoots = [
  'app',
  'components',
  'lib',
  'proxy.ts',
  'next.config.ts',
  'package-lock.json',
  'tailwind.config.ts',
];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

// `npm run test:e2e` builds right before Playwright; build here only when that build is missing or
// older than the sources (e.g. `npx playwright test` after an edit), so a run never tests stale code.
const buildId = join(distDir, 'BUILD_ID');
const buildIsFresh =
  existsSync(buildId) &&
  statSync(buildId).mtimeMs > Math.max(...sourceRoots.map((root) => newestMtime(root)));
const next = `NEXT_DIST_DIR=${distDir} node_modules/.bin/next`;
const build = buildIsFresh ? '' : `${next} build && `;

const serverEnv = {
  // Production servers refuse to start without a session secret; any fixed one does here.
  BETTER_AUTH_SECRET: 'e2e-secret-that-is-long-enough-for-better-auth',
  AI_MODEL: 'offline',
  OFFLINE_MODEL_DELAY_MS: '0',
  NEXT_DIST_DIR: distDir,
  NEXT_TELEMETRY_DISABLED: '1',
  // Every guest and sign-in of the run comes from 127.0.0.1.
  TOOLGATE_GUEST_RATE_LIMIT: '100000/1m',
  TOOLGATE_SIGNIN_RATE_LIMIT: '100000/1m',
  // The specs share two servers and send many messages; the per-user turn limit has its own tests.
  TOOLGATE_USER_TURN_RATE_LIMIT: 'off',
};

// The accounts spec listens here for the main server's verification mail; the env carries it to the workers.
process.env.E2E_SMTP_PORT = String(mainPort + 3);
const e2eSmtpPort = process.env.E2E_SMTP_PORT;
// The approvers spec listens here for the policy server's mail to approvers.
process.env.E2E_APPROVERS_SMTP_PORT = String(mainPort + 4);

export default defineConfig({
  testDir: './e2e',
  outputDir: 'test-results',
  // Two browsers at a time, one spec file each: a spec spends much of its time waiting on a
  // server, which the other worker's spec uses. Specs that share something run one at a time
  // in their own project (`workers: 1`): the approvers' policy file and mail port, the main
  // server's mail port.
  workers: 2,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [
    ['list'],
    ...(process.env.CI ? [['html', { open: 'never' }] as const] : []),
    // `npm test` reads the totals from this report (scripts/run-tests.mjs).
    ...(process.env.PLAYWRIGHT_JSON_OUTPUT_FILE
      ? [['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE }] as const]
      : []),
  ],
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [
    {
      name: 'approvers',
      testMatch: /(approvers|ask-requester)\.spec\.ts/,
      // One policy file that a spec edits and one mail port: one at a time. Listed first: its
      // specs take longest one after the other, so the other worker runs the rest meanwhile.
      workers: 1,
      use: {
        ...devices['Desktop Chrome'],
        viewport,
        baseURL: `http://127.0.0.1:${mcpPort}`,
        locale: 'zh-CN',
      },
    },
    {
      name: 'chromium',
      testIgnore: /(expiry|mcp|approvers|ask-requester|accounts|role-admin)\.spec\.ts/,
      // Tests that need the 3 s approval timeout carry this tag and run in the project below.
      grepInvert: /@short-approval-timeout/,
      use: {
        ...devices['Desktop Chrome'],
        viewport,
        baseURL: `http://127.0.0.1:${mainPort}`,
        locale: 'zh-CN',
      },
    },
    {
      // The specs that read the main server's verification mail, on one port: one at a time.
      name: 'main-server-mail',
      testMatch: /(accounts|role-admin)\.spec\.ts/,
      workers: 1,
      use: {
        ...devices['Desktop Chrome'],
        viewport,
        baseURL: `http://127.0.0.1:${mainPort}`,
        locale: 'zh-CN',
      },
    },
    {
      name: 'short-approval-timeout',
      testMatch: /(expiry|durable-approvals)\.spec\.ts/,
      grep: /@short-approval-timeout/,
      use: {
        ...devices['Desktop Chrome'],
        viewport,
        baseURL: `http://127.0.0.1:${shortTimeoutPort}`,
        locale: 'zh-CN',
      },
    },
    {
      name: 'mcp',
      testMatch: /mcp\.spec\.ts/,
      use: {
        ...devices['Desktop Chrome'],
        viewport,
        baseURL: `http://127.0.0.1:${mcpPort}`,
        locale: 'zh-CN',
      },
    },
  ],
  // Started one after the other, so the second server starts from the build the first one made.
  webServer: [
    {
      command: `${build}${next} start -H 127.0.0.1 -p ${mainPort}`,
      url: `http://127.0.0.1:${mainPort}/api/meta`,
      env: {
        ...serverEnv,
        DATABASE_PATH: join(dataDir, `e2e-${runId}.db`),
        AGENT_CONFIRM_TIMEOUT_MS: '60000',
        TOOLGATE_ADMIN_EMAILS: 'admin@example.com,roles-admin@example.com',
        SMTP_URL: `smtp://127.0.0.1:${e2eSmtpPort}`,
        // Verification links point here.
        BETTER_AUTH_URL: `http://127.0.0.1:${mainPort}`,
      },
      timeout: 240_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `${next} start -H 127.0.0.1 -p ${shortTimeoutPort}`,
      url: `http://127.0.0.1:${shortTimeoutPort}/api/meta`,
      env: {
        ...serverEnv,
        DATABASE_PATH: join(dataDir, `e2e-${runId}-short.db`),
        AGENT_CONFIRM_TIMEOUT_MS: '3000',
      },
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `${next} start -H 127.0.0.1 -p ${mcpPort}`,
      url: `http://127.0.0.1:${mcpPort}/api/meta`,
      env: {
        ...serverEnv,
        DATABASE_PATH: process.env.E2E_APPROVERS_DATABASE_PATH,
        MCP_CONFIG: mcpConfigPath,
        TOOLGATE_POLICY: policyPath,
        // The approvers spec verifies accounts with the operators' CLI; mail here is to approvers.
        TOOLGATE_ALLOW_UNVERIFIED_SIGNUP: '1',
        SMTP_URL: `smtp://127.0.0.1:${process.env.E2E_APPROVERS_SMTP_PORT}`,
        BETTER_AUTH_URL: `http://127.0.0.1:${mcpPort}`,
      },
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
