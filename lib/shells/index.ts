export { composeToolShells, type ToolShell } from './compose-tool-shells';
export { idempotencyKey } from './idempotency-key';
export { stableStringify } from './stable-stringify';
export {
  type ApprovalShellOptions,
  isToolDenial,
  type ToolDenial,
  wrapToolsWithApproval,
} from './wrap-tools-with-approval';
export {
  type IdempotencyReplayEvent,
  type IdempotencyShellOptions,
  wrapToolsWithIdempotency,
} from './wrap-tools-with-idempotency';
export { writeToolNames } from './write-tool-names';
