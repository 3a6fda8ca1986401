import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { createServer } from 'node:net';

const children = new Set<ChildProcess>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    // Each child leads its own process group, so its own children go with it.
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

// Whatever happens to the runner, the servers it started do not outlive it.
process.on('exit', () => {
  for (const child of children) killGroup(child, 'SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const child of children) killGroup(child, 'SIGKILL');
    process.exit(130);
  });
}

/** A port nobody listens on right now, picked by the OS. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address !== null && typeof address === 'object') resolve(address.port);
        else reject(new Error('The OS gave no port'));
      });
    });
  });
}

/** A process this run started, with the last lines of its output for error messages. */
export type ManagedProcess = {
  child: ChildProcess;
  /** The tail of stdout and stderr, for telling why a server did not come up. */
  output: () => string;
  /** Stops the process group (SIGTERM, then SIGKILL after `graceMs`) and waits for the exit. */
  stop: (graceMs?: number) => Promise<void>;
};

/**
 * Starts `command` in its own process group and remembers it, so that `stop()`,
 * or the runner's exit for any reason, ends it and everything it started.
 */
export function startProcess(command: string, args: string[], options: SpawnOptions = {}): ManagedProcess {
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let tail = '';
  const keep = (data: Buffer) => {
    tail = (tail + data.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  exited.then(() => children.delete(child));
  return {
    child,
    output: () => tail,
    stop: async (graceMs = 3000) => {
      killGroup(child, 'SIGTERM');
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Runs `command` to completion with inherited output; rejects on a non-zero exit. */
export function runToCompletion(command: string, args: string[], options: SpawnOptions = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'inherit', 'inherit'] });
    children.add(child);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      children.delete(child);
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code ?? signal}`));
    });
  });
}

/**
 * Polls until `probe` resolves true, or rejects after `timeoutMs` with `explain()`
 * in the message. A probe that throws ends the wait at once (e.g. the server exited).
 */
export async function waitUntil(
  probe: () => Promise<boolean>,
  { timeoutMs, explain }: { timeoutMs: number; explain: () => string },
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Timed out after ${timeoutMs} ms: ${explain()}`);
}
