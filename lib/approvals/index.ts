/**
 * The door to approvals. Everything a route or a turn asks of approvals comes through here:
 *
 * - for routes: decide, give more time, read one, the inbox lists (they parse the request's
 *   query themselves), the event stream, a chat's "for this chat" rules, standing grants,
 *   the count the metrics show, deciders' names for the audit page. Routes parse their
 *   bodies beside themselves; what comes in here is typed. The JSON they answer is typed
 *   in approval-wire-types.ts, which the browser may import (types only).
 * - for a turn: its approvals in one piece (`createTurnApprovals`), how a card ends in its
 *   message's tool part (`settleApprovalPart`, `settleToolParts`, the denial's reason text),
 *   and the approval side of a parked call (`takeParkedCall`) and of reading a chat
 *   (`readChatApprovals`). A decision no live turn took over comes back to its caller
 *   (`parked`), which continues the turn: this folder never runs one.
 * - for the rest of lib/: a row by id (undo), and ending a chat's or a guest's waiting cards.
 *
 * Behind it: the states and the one table of allowed transitions (approval-states.ts), the
 * timing (approval-timing.ts), the verbs that move a row (approval-life-cycle.ts,
 * settle-approvals.ts), the notification that tells every instance (approval-events.ts) and
 * the deadlines (approval-deadlines.ts). Nothing outside this folder writes an approval's
 * status; the row writers in approval-rows.ts are not exported here.
 */

export { approvalEventStream } from './approval-event-stream';
export { denialCodeOf, denialReasonText, settleApprovalPart } from './approval-parts';
export {
  type AnsweredQuestion,
  type AskRequesterResult,
  answerOpenQuestions,
  askRequester,
  maxQuestionLength,
} from './approval-questions';
export { countPendingApprovals, getApproval, userNamesById } from './approval-rows';
export { listChatApprovalRules, revokeChatApprovalRule } from './chat-approval-rules';
export { listApprovalsDecidedByMe, listApprovalsToDecide, readApproval } from './read-approvals';
export { readChatApprovals } from './read-chat-approvals';
export { type RequesterOutcome, tellRequester } from './requester-outcome';
export {
  type ApprovalDecisionRequest,
  type ApprovalDecisionResult,
  type ApprovalExtensionResult,
  type DeciderInput,
  decideApproval,
  extendApprovalDeadline,
  withDecisionOutcome,
} from './resolve-approval';
export { endGuestRoleApprovals, endPendingApprovals, settleToolParts } from './settle-approvals';
export { listStandingGrants, revokeGrant } from './standing-grants';
export { type ParkedCall, takeParkedCall } from './take-parked-call';
export { createTurnApprovals, type TurnApprovals } from './turn-approvals';
export { type UndoRights, undoRightsOf } from './undo-rights';
export {
  listOwnCards,
  listWaitingRequests,
  type OwnCard,
  type WaitingRequest,
  withdrawApproval,
} from './waiting-requests';
