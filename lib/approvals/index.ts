/**
 * The approval life cycle, in one place: its states and the one table of allowed
 * transitions (approval-states.ts), its timing (approval-timing.ts), the verbs that
 * move a row (approval-life-cycle.ts, settle-approvals.ts), the notification that
 * tells every instance (approval-events.ts), and the deadlines it keeps
 * (approval-deadlines.ts). Nothing outside this folder writes an approval's status;
 * the row writers in approval-rows.ts are not exported here.
 */
export { watchPendingDeadlines } from './approval-deadlines';
export {
  type ApprovalEvent,
  publishApprovalChange,
  publishApprovalEvent,
  subscribeApprovalEvents,
} from './approval-events';
export {
  awaitTakeOver,
  type Decider,
  decideApproval,
  type ExtendOutcome,
  extendApproval,
  finishExecution,
  isStaleDigest,
  mayDecide,
  mayView,
  parkApproval,
  requestApproval,
  type StepDecision,
  type StepOutcome,
  stepOpenTo,
  takeParkedDecision,
  takeWokenDecision,
} from './approval-life-cycle';
export {
  type ApprovalEnd,
  type DenialCode,
  denialCodeOf,
  denialReasonText,
  excerptOf,
  isToolPart,
  mapToolPart,
  settleApprovalPart,
  type ToolPart,
} from './approval-parts';
export {
  type ApprovalCursor,
  type ApprovalRecord,
  type ApprovalStepRecord,
  type ApprovalStepSpec,
  countPendingApprovals,
  type DecidedCursor,
  decisionRecordOf,
  getApproval,
  getApprovalSteps,
  getStepsOfApprovals,
  listApprovalsDecidedBy,
  listChatApprovals,
  listDecidableApprovals,
  listPendingDeadlines,
  type NewApproval,
  userNamesById,
} from './approval-rows';
export {
  type ApprovalStatus,
  approvalStatuses,
  approvalTransitions,
  type DeniedStatus,
  deniedStatuses,
  isDeniedStatus,
  reasonByStatus,
} from './approval-states';
export { approvalTiming } from './approval-timing';
export { approverSummary, approverText } from './approver-text';
export { auditApprovalEnd } from './audit-approval-end';
export {
  createDurableApprovalRegistry,
  type DurableApprovalRegistryOptions,
  recordExecution,
} from './durable-approval-registry';
export {
  endGuestRoleApprovals,
  endOfRow,
  endPendingApprovals,
  expireApproval,
  guestRequestEndedNote,
  patchSavedPart,
  settleChatApprovals,
  settleToolParts,
  unknownOutcomeText,
} from './settle-approvals';
export {
  approvedByRuleOrGrant,
  createStandingGrant,
  type GrantRequest,
  grantRefusalOf,
  grantRequestSchema,
  listStandingGrants,
  maxGrantsPerUser,
  revokeGrant,
  type StandingGrantView,
} from './standing-grants';
export { createTurnParking, followed, type TurnParking, type TurnParkingOptions } from './turn-parking';
