import { execFileSync } from 'node:child_process';
import { freePort, type ManagedProcess, startProcess, waitUntil } from './processes';

/** Where `redis-server` is, or undefined when this machine has none. */
export function findRedisServer(): string | undefined {
  if (process.env.REDIS_SERVER_PATH) return process.env.REDIS_SERVER_PATH;
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** A `redis-server` this run owns: no persistence, loopback only, a free port. */
export type RedisServer = { url: string; process: ManagedProcess; stop: () => Promise<void> };

/** Starts a throwaway `redis-server` and resolves once it accepts connections. */
export async function startRedis(binary: string): Promise<RedisServer> {
  const port = await freePort();
  const managed = startProcess(binary, [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
  ]);
  await waitUntil(
    async () => {
      if (managed.child.exitCode !== null) throw new Error(`redis-server exited:\n${managed.output()}`);
      return managed.output().includes('Ready to accept connections');
    },
    {
      timeoutMs: 10_000,
      explain: () => `redis-server on ${port} did not start:\n${managed.output()}`,
    },
  ).catch(async (error: unknown) => {
    await managed.stop();
    throw error;
  });
  return { url: `redis://127.0.0.1:${port}`, process: managed, stop: () => managed.stop() };
}
