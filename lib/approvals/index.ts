/**
 * The door to approvals. Everything a route or a turn asks of approvals comes through here:
 *
 * - for routes: decide, give more time, read one, the inbox lists, the event stream, a
 *   chat's "for this chat" rules, standing grants (resolve-approval.ts, read-approvals.ts,
 *   approval-event-stream.ts, chat-approval-rules.ts, standing-grants.ts). Routes parse their
 *   bodies beside themselves; what comes in here is typed. A decision no live turn took over
 *   comes back to its caller (`parked`), which continues the turn: this folder never runs one.
 * - for a turn: asking, parking, carrying out and settling its calls, and the tool parts
 *   of its messages.
 *
 * Behind it: the states and the one table of allowed transitions (approval-states.ts), the
 * timing (approval-timing.ts), the verbs that move a row (approval-life-cycle.ts,
 * settle-approvals.ts), the notification that tells every instance (approval-events.ts) and
 * the deadlines (approval-deadlines.ts). Nothing outside this folder writes an approval's
 * status; the row writers in approval-rows.ts are not exported here.
 */

export { approvalEventStream } from './approval-event-stream';
export { publishApprovalChange } from './approval-events';
export { finishExecution, takeParkedDecision } from './approval-life-cycle';
export {
  type ApprovalEnd,
  denialCodeOf,
  denialReasonText,
  isToolPart,
  mapToolPart,
  settleApprovalPart,
  type ToolPart,
} from './approval-parts';
export { policyAsk } from './approval-policy';
export {
  type ApprovalRecord,
  countPendingApprovals,
  decisionRecordOf,
  getApproval,
  listChatApprovals,
  userNamesById,
} from './approval-rows';
export {
  type DeniedStatus,
  denialReasonOf,
  deniedStatuses,
  isDeniedStatus,
  reasonByStatus,
} from './approval-states';
export { approvalTiming } from './approval-timing';
export { auditApprovalEnd } from './audit-approval-end';
export { listChatApprovalRules, revokeChatApprovalRule } from './chat-approval-rules';
export {
  decodeApprovalCursor,
  listApprovalsDecidedByMe,
  listApprovalsToDecide,
  maxApprovalPageSize,
  readApproval,
} from './read-approvals';
export {
  type ApprovalDecisionRequest,
  type ApprovalDecisionResult,
  type DeciderInput,
  decideApproval,
  extendApprovalDeadline,
} from './resolve-approval';
export {
  endGuestRoleApprovals,
  endPendingApprovals,
  settleChatApprovals,
  settleToolParts,
} from './settle-approvals';
export { listStandingGrants, revokeGrant } from './standing-grants';
export { createTurnApprovals, type TurnApprovals } from './turn-approvals';
export { followed } from './turn-parking';
