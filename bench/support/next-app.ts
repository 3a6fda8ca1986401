import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort, type ManagedProcess, runToCompletion, startProcess, waitUntil } from './processes';

/** The repository root (bench/support/../..). */
export const repoRoot = resolve(__dirname, '..', '..');

/**
 * The production build the HTTP benchmarks serve; its own folder, so it never fights
 * `next dev`. `BENCH_DIST_DIR` points it at another build: `npm test` runs the quick
 * mode on the test build it has just made (`.next-test`) instead of building twice.
 */
export const benchDistDir = process.env.BENCH_DIST_DIR || '.next-bench';

/** Scratch space for databases and logs of one run (gitignored). */
export function scratchDir(name: string): string {
  const directory = join(repoRoot, 'bench', '.tmp', name);
  mkdirSync(directory, { recursive: true });
  return directory;
}

const sourceRoots = ['app', 'lib', 'components', 'proxy.ts', 'next.config.ts', 'package-lock.json'];

function newestMtime(path: string): number {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats === undefined) return 0;
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** True when the bench build exists and no source file changed after it was built. */
export function buildIsFresh(): boolean {
  const built = statSync(join(repoRoot, benchDistDir, 'BUILD_ID'), { throwIfNoEntry: false });
  if (built === undefined) return false;
  return sourceRoots.every((root) => newestMtime(join(repoRoot, root)) <= built.mtimeMs);
}

/** True when the bench build folder holds a finished build. */
export function buildExists(): boolean {
  return statSync(join(repoRoot, benchDistDir, 'BUILD_ID'), { throwIfNoEntry: false }) !== undefined;
}

/** `next build` into the bench build folder. */
export async function buildApp(): Promise<void> {
  await runToCompletion(join(repoRoot, 'node_modules', '.bin', 'next'), ['build'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NEXT_DIST_DIR: benchDistDir,
      NEXT_TELEMETRY_DISABLED: '1',
      TOOLGATE_BENCH_BUILD: '1',
    },
  });
}

/**
 * When set (`npm run bench -- --cpu-prof`), every server `startApp` starts writes a V8 CPU
 * profile into this folder. Node writes it only on a normal exit: `next start` exits by
 * itself on SIGTERM once its connections have closed, and the profile of a long run takes
 * seconds to write, so a profiled server is given a long grace before SIGKILL.
 */
let profileDirectory: string | undefined;

/** Profiles every server started from now on into `directory` (sampling every 100 µs). */
export function profileServersInto(directory: string): void {
  mkdirSync(directory, { recursive: true });
  profileDirectory = directory;
}

/** The folder servers are profiled into, if any. */
export function serverProfileDirectory(): string | undefined {
  return profileDirectory;
}

const profiledStopGraceMs = 120_000;

function profilesIn(directory: string): string[] {
  return readdirSync(directory).filter((name) => name.endsWith('.cpuprofile'));
}

/** A running `next start` of the bench build. */
export type AppServer = { url: string; process: ManagedProcess; stop: () => Promise<void> };

// Settings of the developer's shell that would change what is measured.
const clearedVariables = [
  'REDIS_URL',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'DATABASE_URL',
  'OPENAI_MODEL',
  'AGENT_CONFIRM_TOOLS',
  'AGENT_CONFIRM_TIMEOUT_MS',
  'AGENT_TOOL_RATE_LIMIT',
  'IDEMPOTENCY_TTL_MS',
  'IDEMPOTENCY_MAX_ENTRIES',
  'NODE_OPTIONS',
];

/**
 * Starts `next start` on a free port with the offline model at zero delay, a
 * fresh database at `databasePath`, the bench routes on, and `environment` on
 * top; resolves once it answers HTTP.
 */
export async function startApp({
  databasePath,
  environment = {},
  nodeArguments = [],
  distDir = benchDistDir,
  ownPublicUrl = false,
}: {
  databasePath: string;
  /** Another build of the app to serve (e.g. the code before a change, for `--against`). */
  distDir?: string;
  environment?: Record<string, string | undefined>;
  /** Flags for the server's Node, e.g. `['--cpu-prof']` when profiling (NODE_OPTIONS refuses some). */
  nodeArguments?: string[];
  /** Set `BETTER_AUTH_URL` to this server's own address (mail, `SMTP_URL`, needs a public URL). */
  ownPublicUrl?: boolean;
}): Promise<AppServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const profiling = profileDirectory;
  const profileArguments =
    profiling === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profiling}`, '--cpu-prof-interval=100'];
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of clearedVariables) delete env[name];
  Object.assign(env, {
    NODE_ENV: 'production',
    BETTER_AUTH_SECRET: 'bench-secret-that-is-long-enough-for-better-auth',
    NEXT_TELEMETRY_DISABLED: '1',
    NEXT_DIST_DIR: distDir,
    AI_MODEL: 'offline',
    OFFLINE_MODEL_DELAY_MS: '0',
    DATABASE_PATH: databasePath,
    // A bench drives thousands of turns and cards as a handful of users: the per-user limits would refuse them.
    TOOLGATE_USER_TURN_RATE_LIMIT: 'off',
    TOOLGATE_MAX_PENDING_APPROVALS: '1000000',
    ...(ownPublicUrl && { BETTER_AUTH_URL: url }),
    ...environment,
  });
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  // Node runs Next's CLI directly, so the PID held is the server's and Node flags apply to it.
  const managed = startProcess(
    process.execPath,
    [
      ...profileArguments,
      ...nodeArguments,
      join(repoRoot, 'node_modules', 'next', 'dist', 'bin', 'next'),
      'start',
      '-p',
      String(port),
      '-H',
      '127.0.0.1',
    ],
    { cwd: repoRoot, env: env as NodeJS.ProcessEnv },
  );
  try {
    await waitUntil(
      async () => {
        if (managed.child.exitCode !== null) throw new Error(`next start exited:\n${managed.output()}`);
        try {
          const response = await fetch(`${url}/api/meta`);
          await response.body?.cancel();
          return response.status < 500;
        } catch {
          return false;
        }
      },
      { timeoutMs: 60_000, explain: () => `next start on ${url} did not answer:\n${managed.output()}` },
    );
    // Every API route needs a session: the load generator is one guest.
    const signIn = await fetch(`${url}/api/auth/sign-in/anonymous`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    if (!signIn.ok) throw new Error(`anonymous sign-in answered ${signIn.status}: ${await signIn.text()}`);
    cookieByUrl.set(
      url,
      signIn.headers
        .getSetCookie()
        .map((cookie) => cookie.split(';')[0])
        .join('; '),
    );
  } catch (error) {
    await managed.stop();
    throw error;
  }
  if (profiling === undefined) return { url, process: managed, stop: () => managed.stop() };
  // Node names a profile CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile.
  const ofThisServer = (name: string) => name.split('.')[3] === String(managed.child.pid);
  return {
    url,
    process: managed,
    stop: async () => {
      await managed.stop(profiledStopGraceMs);
      const written = profilesIn(profiling).filter(ofThisServer);
      if (written.length === 0 && existsSync(profiling)) {
        throw new Error(
          `The profiled server on ${url} exited without writing a profile:\n${managed.output()}`,
        );
      }
      for (const name of written) console.error(`  · CPU profile of ${distDir}: ${join(profiling, name)}`);
    },
  };
}

const cookieByUrl = new Map<string, string>();

/** JSON request headers carrying the guest session `startApp` signed in for the server at `url`. */
export function sessionHeaders(url: string): Record<string, string> {
  const origin = new URL(url).origin;
  const cookie = cookieByUrl.get(origin);
  return { 'content-type': 'application/json', ...(cookie === undefined ? {} : { cookie }) };
}
