export type {
  ApprovalDecision,
  ApprovalRegistry,
  ApprovalRequest,
  ApprovalRequestEvent,
  ConfirmOptions,
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
