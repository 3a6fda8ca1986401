/*
 * @toolgate/engine: hardened tools for AI SDK apps. Wrap a tool table in shells (approval,
 * idempotency, audit, rate limit, provenance, error references, tracing) and the model can
 * only act through them. Redis adapters are under `@toolgate/engine/redis`, the policy file
 * under `@toolgate/engine/policy`, helpers safe for a browser bundle under
 * `@toolgate/engine/client`, and the store contract suites under `@toolgate/engine/test`.
 */

// The decision vocabulary: denial reasons, audit outcomes and details, and the audit record.
export type { NewAuditRow } from './decisions/audit-record';
export {
  type AuditDetail,
  type AuditOutcome,
  type AuditSummary,
  auditOutcomeOfDenial,
  auditOutcomes,
  type DenialReason,
  denialReasons,
  modelTextOfDenial,
} from './decisions/decision-vocabulary';
// Errors a user may see: a short message and a reference id, the details in the server log.
export { PublicError, publicErrorText } from './errors/public-error';
export { reportError } from './errors/report-error';
// Input validation against a tool's own schema.
export { type ToolInputValidation, validateToolInput } from './input/validate-tool-input';
// Provenance: where a write call's values came from, and whether an outsider supplied them.
export {
  type CallProvenance,
  type ChatMark,
  type ContextSource,
  fileText,
  isTainted,
  ProvenanceLedger,
  provenanceAfterEdit,
  savedTrustOf,
  type ToolTrust,
  type TrustOf,
  traceInput,
  type UntrustedRead,
  type ValueSource,
} from './provenance';
// Keys, canonical JSON and the write execution a tool receives.
export { idempotencyKey } from './shared/idempotency-key';
export { stableStringify } from './shared/stable-stringify';
export { downstreamIdempotencyKey, type WriteExecution, writeExecutionOf } from './shared/write-execution';
export { composeToolShells, type ToolShell } from './shells/compose-tool-shells';
// The shells and the composer.
export { type HardenToolsOptions, hardenTools } from './shells/harden-tools';
export { inputDigestOf, inputDigestPattern } from './shells/input-digest';
export { finalOutput, type ToolExecute } from './shells/wrap-execute';
export {
  type ApprovalAsk,
  type ApprovalDecisionEvent,
  type ApprovalShellOptions,
  denialNoteOf,
  eitherSignal,
  isEditedOutput,
  isToolDenial,
  type ProvenanceCheck,
  type QuotaGate,
  type ToolDenial,
  toolDenial,
  withPersonForTaint,
  wrapToolsWithApproval,
} from './shells/wrap-tools-with-approval';
export {
  type AuditShellOptions,
  hashToolArguments,
  wrapToolsWithAudit,
} from './shells/wrap-tools-with-audit';
export {
  type ErrorReferenceShellOptions,
  wrapToolsWithErrorReferences,
} from './shells/wrap-tools-with-error-references';
export {
  type EffectCall,
  type EffectRecorder,
  type IdempotencyReplayEvent,
  type IdempotencyShellOptions,
  wrapToolsWithIdempotency,
} from './shells/wrap-tools-with-idempotency';
export { wrapToolsRefusingTaint, wrapToolsWithOutputRecording } from './shells/wrap-tools-with-provenance';
export {
  isToolRateLimited,
  type RateLimitShellOptions,
  spendOrRefuse,
  type ToolRateLimited,
  type ToolRateLimiter,
  wrapToolsWithRateLimit,
} from './shells/wrap-tools-with-rate-limit';
export {
  createToolCallTracing,
  type ToolCallTracingOptions,
  traceRejectedToolCall,
} from './shells/wrap-tools-with-tracing';

// The stores: interfaces and in-memory adapters.
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
} from './stores/approval-registry';
export type { IdempotencyRunOptions, IdempotencyStore } from './stores/idempotency-store';
export {
  createMemoryApprovalRegistry,
  type MemoryApprovalRegistry,
  type MemoryApprovalRegistryOptions,
} from './stores/memory-approval-registry';
export {
  createMemoryIdempotencyStore,
  type MemoryIdempotencyStore,
  type MemoryIdempotencyStoreOptions,
} from './stores/memory-idempotency-store';
export { StoreUnavailableError } from './stores/store-unavailable-error';
