/* The store interfaces' parts, for an adapter of your own (check it with `@toolgate/engine/test`), and the in-memory adapters' types. */

export { eitherSignal } from './shells/wrap-tools-with-approval';
export type {
  ApprovalDecision,
  ApprovalPreview,
  ApprovalRequest,
  ApprovalStep,
  ConfirmOptions,
  DecisionMaker,
  DecisionRecord,
} from './stores/approval-registry';
export type { IdempotencyRunOptions } from './stores/idempotency-store';
export type {
  MemoryApprovalRegistry,
  MemoryApprovalRegistryOptions,
} from './stores/memory-approval-registry';
export type {
  MemoryIdempotencyStore,
  MemoryIdempotencyStoreOptions,
} from './stores/memory-idempotency-store';
