export { idempotencyKey } from '@/lib/shared/idempotency-key';
export { stableStringify } from '@/lib/shared/stable-stringify';
export {
  downstreamIdempotencyKey,
  type WriteExecution,
  writeExecutionOf,
} from '@/lib/shared/write-execution';
export { composeToolShells, type ToolShell } from './compose-tool-shells';
export { inputDigestOf, inputDigestPattern } from './input-digest';
export {
  type ApprovalDecisionEvent,
  type ApprovalShellOptions,
  denialNoteOf,
  editedInputNote,
  eitherSignal,
  isEditedOutput,
  isToolDenial,
  type ProvenanceCheck,
  type ToolDenial,
  toolDenial,
  withEditedInput,
  wrapToolsWithApproval,
} from './wrap-tools-with-approval';
export { type AuditShellOptions, hashToolArguments, wrapToolsWithAudit } from './wrap-tools-with-audit';
export {
  type ErrorReferenceShellOptions,
  wrapToolsWithErrorReferences,
} from './wrap-tools-with-error-references';
export {
  type EffectCall,
  type EffectRecorder,
  type IdempotencyReplayEvent,
  type IdempotencyShellOptions,
  wrapToolsWithIdempotency,
} from './wrap-tools-with-idempotency';
export { wrapToolsRefusingTaint, wrapToolsWithOutputRecording } from './wrap-tools-with-provenance';
export {
  isToolRateLimited,
  type RateLimitShellOptions,
  spendOrRefuse,
  type ToolRateLimited,
  type ToolRateLimiter,
  unavailableRetryAfterMs,
  wrapToolsWithRateLimit,
} from './wrap-tools-with-rate-limit';
export { writeToolNames } from './write-tool-names';
