/**
 * The door to approvals. Everything a route, a turn or the start-up hook asks of approvals
 * comes through here:
 *
 * - for routes: decide, give more time, read one, the inbox lists (they parse the request's
 *   query themselves), the event stream, a chat's "for this chat" rules, standing grants,
 *   the count the metrics show, deciders' names for the audit page. Routes parse their
 *   bodies beside themselves; what comes in here is typed. The JSON they answer is typed
 *   in surfaces/approval-wire-types.ts, which the browser may import (types only).
 * - for a turn: its approvals in one piece (`createTurnApprovals`), how a card ends in its
 *   message's tool part (`settleApprovalPart`, `settleToolParts`, the denial's reason text),
 *   and the approval side of a parked call (`takeParkedCall`, and `tellRequester` once it
 *   ran) and of reading a chat (`readChatApprovals`). A decision no live turn took over comes
 *   back to its caller (`parked`), which continues the turn: this folder never runs one.
 * - for the start-up hook: the deadline keeper (`watchPendingDeadlines`).
 * - for the rest of lib/: a row by id (undo), and ending a chat's or a guest's waiting cards.
 *
 * Behind it, three rooms, each importing only the rooms below it. surfaces/: what people and
 * the model read (the inbox lists, the event stream, questions, a chat's approvals, the
 * waiting requests, the wire types). notices/: what is sent as a row moves (approver mail and
 * its reminders, the webhook, the requester told, the operators told of a step nobody can
 * fill, in the words approvers read). life-cycle/: the states and the one table of allowed
 * transitions (approval-states.ts), the timing, the verbs that move a row
 * (approval-life-cycle.ts, settle-approvals.ts), the notification that tells every instance
 * (approval-events.ts), the deadlines and escalation. The life cycle says WHEN to tell
 * through a port (life-cycle/approval-notices.ts); this door installs the notices behind it
 * as it loads, so whoever comes through it has them. Nothing outside this folder writes an
 * approval's status; the row writers in life-cycle/approval-rows.ts are not exported here.
 */

import { installApprovalNotices } from './life-cycle/approval-notices';
import { tellOfApprovals } from './notices/tell-of-approvals';

// Before anything behind this door runs: the life cycle it hands out sends its notices.
installApprovalNotices(tellOfApprovals);

export { watchPendingDeadlines } from './life-cycle/approval-deadlines';
export type { RequesterOutcome } from './life-cycle/approval-notices';
export { denialCodeOf, denialReasonText, settleApprovalPart } from './life-cycle/approval-parts';
export { getApproval, userNamesById } from './life-cycle/approval-rows';
export { listChatApprovalRules, revokeChatApprovalRule } from './life-cycle/chat-approval-rules';
export {
  type ApprovalDecisionRequest,
  type ApprovalDecisionResult,
  type ApprovalExtensionResult,
  type DeciderInput,
  decideApproval,
  extendApprovalDeadline,
  withDecisionOutcome,
} from './life-cycle/resolve-approval';
export { endGuestRoleApprovals, endPendingApprovals, settleToolParts } from './life-cycle/settle-approvals';
export { listStandingGrants, revokeGrant } from './life-cycle/standing-grants';
export { type ParkedCall, takeParkedCall } from './life-cycle/take-parked-call';
export { createTurnApprovals, type TurnApprovals } from './life-cycle/turn-approvals';
export { type UndoRights, undoRightsOf } from './life-cycle/undo-rights';
export { tellRequester } from './notices/requester-outcome';
export { approvalEventStream } from './surfaces/approval-event-stream';
export { countPendingApprovals } from './surfaces/approval-lists';
export {
  type AnsweredQuestion,
  type AskRequesterResult,
  answerOpenQuestions,
  askRequester,
  maxQuestionLength,
} from './surfaces/approval-questions';
export { listApprovalsDecidedByMe, listApprovalsToDecide, readApproval } from './surfaces/read-approvals';
export { readChatApprovals } from './surfaces/read-chat-approvals';
export {
  listOwnCards,
  listWaitingRequests,
  type OwnCard,
  type WaitingRequest,
  withdrawApproval,
} from './surfaces/waiting-requests';
