/* The store contract suites (vitest): run them against your own ApprovalRegistry or IdempotencyStore. */
export {
  describeApprovalRegistryContract,
  type MakeApprovalRegistry,
} from './test/approval-registry-contract';
export {
  describeIdempotencyStoreContract,
  type IdempotencyStoreUnderTest,
  type MakeIdempotencyStore,
} from './test/idempotency-store-contract';
