import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { inject } from 'vitest';
import type { RedisClient } from '../../packages/engine/src/stores/redis-client';

/** The URL of the redis-server started by tests/setup/redis-server.ts. */
export const redisUrl = inject('redisUrl');

/**
 * A connected client of its own, as a separate process would have. Fails fast
 * like the production client, and swallows connection errors (a test may kill it).
 */
export async function connectTestClient(url: string = redisUrl): Promise<RedisClient> {
  const client: RedisClient = createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: 2_000 },
    socket: { connectTimeout: 2_000, reconnectStrategy: false },
  });
  client.on('error', () => {});
  await client.connect();
  return client;
}

/** Closes a client whatever state it is in. */
export async function closeTestClient(client: RedisClient): Promise<void> {
  if (client.isOpen) await client.close().catch(() => client.destroy());
}

/** A key namespace no other test shares, so tests never see each other's keys. */
export function uniquePrefix(kind: string): string {
  return `toolgate-test:${randomUUID()}:${kind}:`;
}

/** Every key under `prefix` (tests use it to check that nothing is left behind). */
export async function keysUnder(client: RedisClient, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const page of client.scanIterator({ MATCH: `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*` })) {
    keys.push(...page);
  }
  return keys.sort();
}
