/* Redis adapters of the engine's stores (node-redis v6), and the client they take. */
export {
  createRedisApprovalRegistry,
  type RedisApprovalRegistry,
  type RedisApprovalRegistryOptions,
} from './stores/redis-approval-registry';
export { redisChannels } from './stores/redis-channels';
export { ensureRedisReady, getRedisClient, type RedisClient } from './stores/redis-client';
export {
  createRedisIdempotencyStore,
  type RedisIdempotencyStore,
  type RedisIdempotencyStoreOptions,
} from './stores/redis-idempotency-store';
export { createRedisSubscription, type RedisSubscription } from './stores/redis-subscription';
