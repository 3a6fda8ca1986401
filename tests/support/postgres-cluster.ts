import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort } from './free-port';
import { isExecutable } from './is-executable';

const installHint =
  'Install PostgreSQL’s server (Debian/Ubuntu: `apt-get install -y postgresql`; macOS: `brew install postgresql`) ' +
  'or point POSTGRES_BIN_DIR at the folder holding initdb and pg_ctl. The Postgres suites never skip.';

/** A running throwaway cluster. */
export type PostgresCluster = {
  /** The admin URL, `postgres://postgres@127.0.0.1:<port>/postgres`. */
  url: string;
  /** Stops the server and keeps its data (an outage); `resume` starts it again on the same port. */
  pause: () => void;
  resume: () => void;
  /** Stops the server and deletes its folder. */
  destroy: () => void;
};

/**
 * Creates a throwaway PostgreSQL cluster in a temporary folder and starts it on a free
 * 127.0.0.1 port, tuned for tests (no fsync). `initdb` and `postgres` refuse to run as
 * root, so as root they run as the `postgres` user.
 */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const binDir = findPostgresBinDir();
  const asRoot = userInfo().uid === 0;
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-pg-'));
  const runAs = (command: string, args: string[]) => {
    const [file, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(binDir, command), ...args]]
      : [join(binDir, command), args];
    return execFileSync(file, argv, { stdio: 'pipe', encoding: 'utf8' });
  };
  if (asRoot) {
    const { uid, gid } = postgresUser();
    chownSync(dataDir, uid, gid);
  }
  const clusterDir = join(dataDir, 'cluster');
  try {
    runAs('initdb', ['-D', clusterDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C.UTF-8']);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${describeFailure(error)}`);
  }

  let lastError: unknown;
  // A free port can be taken between probing and binding; try a few.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const port = await freePort();
    const options = [
      `-p ${port}`,
      `-k ${dataDir}`,
      '-c listen_addresses=127.0.0.1',
      // A throwaway cluster: durability buys nothing and costs seconds.
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=300',
    ].join(' ');
    const start = () =>
      runAs('pg_ctl', [
        '-D',
        clusterDir,
        '-o',
        options,
        '-l',
        join(dataDir, 'server.log'),
        '-w',
        '-t',
        '30',
        'start',
      ]);
    const stop = () => runAs('pg_ctl', ['-D', clusterDir, '-m', 'fast', '-w', 'stop']);
    try {
      start();
    } catch (error) {
      lastError = new Error(`postgres did not start on port ${port}: ${describeFailure(error)}`);
      continue;
    }
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      pause: stop,
      resume: start,
      destroy: () => {
        try {
          runAs('pg_ctl', ['-D', clusterDir, '-m', 'immediate', '-w', 'stop']);
        } catch {
          // already stopped
        } finally {
          rmSync(dataDir, { recursive: true, force: true });
        }
      },
    };
  }
  rmSync(dataDir, { recursive: true, force: true });
  throw lastError;
}

function describeFailure(error: unknown): string {
  const { message, stderr } = error as { message: string; stderr?: string };
  return `${message}\n${stderr ?? ''}`;
}

function postgresUser(): { uid: number; gid: number } {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new Error(`Running as root needs a "postgres" user to run the server as. ${installHint}`);
  }
}

/** The folder with initdb and pg_ctl: POSTGRES_BIN_DIR, Debian's versioned folder, or PATH. */
export function findPostgresBinDir(): string {
  const configured = process.env.POSTGRES_BIN_DIR;
  if (configured) {
    if (isExecutable(join(configured, 'initdb'))) return configured;
    throw new Error(`POSTGRES_BIN_DIR=${configured} holds no executable initdb. ${installHint}`);
  }
  const debianRoot = '/usr/lib/postgresql';
  if (existsSync(debianRoot)) {
    const versions = readdirSync(debianRoot)
      .filter((name) => /^\d+$/.test(name))
      .sort((left, right) => Number(right) - Number(left));
    for (const version of versions) {
      const candidate = join(debianRoot, version, 'bin');
      if (isExecutable(join(candidate, 'initdb'))) return candidate;
    }
  }
  for (const directory of (process.env.PATH ?? '').split(delimiter)) {
    if (directory !== '' && isExecutable(join(directory, 'initdb'))) return directory;
  }
  throw new Error(`PostgreSQL's initdb was not found. ${installHint}`);
}
