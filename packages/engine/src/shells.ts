/*
 * The parts the shells' options are made of (for an app that names them apart from the
 * options type), and the hashes, digests and helpers an app uses to keep or show what the
 * shells record.
 */
export { downstreamIdempotencyKey, type WriteExecution } from './shared/write-execution';
export { inputDigestOf, inputDigestPattern } from './shells/input-digest';
export { finalOutput, type ToolExecute } from './shells/wrap-execute';
export {
  type ApprovalAsk,
  type ApprovalDecisionEvent,
  type ProvenanceCheck,
  type QuotaGate,
  withPersonForTaint,
} from './shells/wrap-tools-with-approval';
export { hashToolArguments } from './shells/wrap-tools-with-audit';
export type {
  EffectCall,
  EffectRecorder,
  IdempotencyReplayEvent,
} from './shells/wrap-tools-with-idempotency';
export { spendOrRefuse, type ToolRateLimiter } from './shells/wrap-tools-with-rate-limit';
