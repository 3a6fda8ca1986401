import { createMemoryApprovalRegistry, createMemoryIdempotencyStore } from '@toolgate/engine';
import { describeApprovalRegistryContract, describeIdempotencyStoreContract } from '@toolgate/engine/test';

// The memory half of the one contract suite; tests/redis/store-contracts.test.ts runs the Redis half.
describeIdempotencyStoreContract('createMemoryIdempotencyStore', ({ ttlMs, maxEntries }) => {
  // A fake clock: TTL tests take no real time here.
  let clock = 1_000_000;
  return {
    store: createMemoryIdempotencyStore({ ttlMs, maxEntries, now: () => clock }),
    elapse: async (ms) => {
      clock += ms;
    },
  };
});

describeApprovalRegistryContract('createMemoryApprovalRegistry', () => createMemoryApprovalRegistry());
