import { createRedisApprovalRegistry, createRedisIdempotencyStore } from '@toolgate/engine/redis';
import { describeApprovalRegistryContract, describeIdempotencyStoreContract } from '@toolgate/engine/test';
import { afterAll, beforeAll, onTestFinished } from 'vitest';
import type { RedisClient } from '../../packages/engine/src/stores/redis-client';
import { closeTestClient, connectTestClient, uniquePrefix } from './redis-test-client';

// The Redis half of the one contract suite; tests/engine/store-contracts.test.ts runs the memory half.
let client: RedisClient;
beforeAll(async () => {
  client = await connectTestClient();
});
afterAll(async () => {
  await closeTestClient(client);
});

describeIdempotencyStoreContract('createRedisIdempotencyStore', ({ ttlMs, maxEntries }) => {
  const store = createRedisIdempotencyStore({
    client,
    ttlMs,
    maxEntries,
    prefix: uniquePrefix('idem'),
    pollIntervalMs: 20,
  });
  onTestFinished(() => store.close());
  // Expiry happens on the Redis server, so time really has to pass.
  return { store, elapse: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };
});

describeApprovalRegistryContract('createRedisApprovalRegistry', () => {
  const registry = createRedisApprovalRegistry({ client, prefix: uniquePrefix('approval') });
  onTestFinished(() => registry.close());
  return registry;
});
