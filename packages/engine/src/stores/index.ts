export type {
  ApprovalDecision,
  ApprovalPreview,
  ApprovalRegistry,
  ApprovalRequest,
  ApprovalRequestEvent,
  ApprovalStep,
  ConfirmOptions,
  DecisionMaker,
  DecisionRecord,
  DenialReason,
} from './approval-registry';
export type { IdempotencyRunOptions, IdempotencyStore } from './idempotency-store';
export {
  createMemoryApprovalRegistry,
  type MemoryApprovalRegistry,
  type MemoryApprovalRegistryOptions,
} from './memory-approval-registry';
export {
  createMemoryIdempotencyStore,
  type MemoryIdempotencyStore,
  type MemoryIdempotencyStoreOptions,
} from './memory-idempotency-store';
export {
  createRedisApprovalRegistry,
  type RedisApprovalRegistry,
  type RedisApprovalRegistryOptions,
} from './redis-approval-registry';
export { getRedisClient, type RedisClient } from './redis-client';
export {
  createRedisIdempotencyStore,
  type RedisIdempotencyStore,
  type RedisIdempotencyStoreOptions,
} from './redis-idempotency-store';
export { StoreUnavailableError } from './store-unavailable-error';
