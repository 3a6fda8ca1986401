/*
 * @toolgate/engine: hardened tools for AI SDK apps. Wrap a tool table in shells (approval,
 * idempotency, audit, rate limit, provenance, error references, tracing) and the model can
 * only act through them. This entry is the common case; the parts behind it are grouped
 * under subpaths: `@toolgate/engine/shells` (what the shells' options are made of, and the
 * hashes and digests they record), `@toolgate/engine/stores` (the store interfaces' parts,
 * for an adapter of your own), `@toolgate/engine/provenance`, `@toolgate/engine/redis`,
 * `@toolgate/engine/policy`, `@toolgate/engine/client` (safe in a browser bundle),
 * `@toolgate/engine/telemetry` and `@toolgate/engine/test` (the store contract suites).
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
  denialReasonOfAudit,
  denialReasons,
  modelTextOfDenial,
} from './decisions/decision-vocabulary';
export { PublicError, publicErrorText } from './errors/public-error';
export { reportError } from './errors/report-error';
// Input validation, and errors a user may see: a short message and a reference id, the details in the server log.
export { validateToolInput } from './input/validate-tool-input';
// Provenance's ledger and a call's provenance (the rest under `@toolgate/engine/provenance`).
export { type CallProvenance, ProvenanceLedger } from './provenance';
// Keys, canonical JSON and the write execution a tool receives.
export { idempotencyKey } from './shared/idempotency-key';
export { stableStringify } from './shared/stable-stringify';
export { writeExecutionOf } from './shared/write-execution';
// The shells and the composer.
export { composeToolShells, type ToolShell } from './shells/compose-tool-shells';
export { type HardenToolsOptions, hardenTools } from './shells/harden-tools';
export {
  type ApprovalShellOptions,
  type ToolDenial,
  toolDenial,
  wrapToolsWithApproval,
} from './shells/wrap-tools-with-approval';
export { type AuditShellOptions, wrapToolsWithAudit } from './shells/wrap-tools-with-audit';
export {
  type ErrorReferenceShellOptions,
  wrapToolsWithErrorReferences,
} from './shells/wrap-tools-with-error-references';
export { type IdempotencyShellOptions, wrapToolsWithIdempotency } from './shells/wrap-tools-with-idempotency';
export { wrapToolsRefusingTaint, wrapToolsWithOutputRecording } from './shells/wrap-tools-with-provenance';
export { type RateLimitShellOptions, wrapToolsWithRateLimit } from './shells/wrap-tools-with-rate-limit';
export { createToolCallTracing, type ToolCallTracingOptions } from './shells/wrap-tools-with-tracing';
// The stores: interfaces and in-memory adapters (Redis under `@toolgate/engine/redis`).
export type { ApprovalRegistry, ApprovalRequestEvent } from './stores/approval-registry';
export type { IdempotencyStore } from './stores/idempotency-store';
export { createMemoryApprovalRegistry } from './stores/memory-approval-registry';
export { createMemoryIdempotencyStore } from './stores/memory-idempotency-store';
export { StoreUnavailableError } from './stores/store-unavailable-error';
