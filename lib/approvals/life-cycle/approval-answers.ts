/**
 * What the approval life cycle answers, as types only: how a call ended, the answer to a
 * decision and to "+60 s", a chat's rules. The routes send them as JSON (their views are
 * typed in surfaces/approval-wire-types.ts, which re-exports these) and the browser reads them.
 * Every import here is a type from a module without server code.
 */
import type { DenialReason } from '@toolgate/engine';
import type { ApprovalStatus } from './approval-states';

/**
 * How a call ended, as an approver reads it (absent while it waits or runs): it ran
 * (`executed`, with what the tool answered, e.g. `{ refundId: "RF-000003", … }`), failed
 * while running, ended without running (`denied`: a person, the policy now, Stop, a new
 * message), nobody decided in time (`expired`), or its requester withdrew it.
 */
export type ApprovalOutcome = {
  status: 'executed' | 'denied' | 'failed' | 'expired' | 'withdrawn';
  result?: unknown;
};

/** A tool the person allowed for the rest of a chat (`GET /api/chats/:id/approval-rules`). */
export type ChatApprovalRule = { toolName: string; createdAt: string };

/**
 * Why a decision was refused as sent (400; nothing was decided, the call still waits), for a
 * card to say in the reader's language: the policy refuses the edited input, the edit needs
 * other approvers, the edited refund is more than what is left or in another currency, "for
 * this chat" on a call an untrusted source drove, too many standing grants.
 */
export type DecisionRefusalCode =
  | 'policy_refuses_input'
  | 'needs_other_approvers'
  | 'exceeds_remaining'
  | 'currency_mismatch'
  | 'tainted_rule'
  | 'grant_limit';

/** The answer to a decision (`POST /api/chat/approve`). */
export type ApprovalDecisionAnswer =
  | {
      status: 'approved' | 'denied' | 'waiting';
      reason?: 'policy_changed';
      /** What the call did once settled (it ran, with its result; it was refused; …); absent while waiting. */
      outcome?: ApprovalOutcome;
    }
  | {
      error: string;
      fieldErrors?: Record<string, string[]>;
      /** With a 400: which refusal `error` states, and its values (`params`), for the reader's language. */
      code?: DecisionRefusalCode;
      params?: Record<string, string>;
      /**
       * With a 404 to someone who may still see the approval: it is no longer theirs to decide
       * because it ended (its `status`, `reason` and `outcome`), or because they already filled
       * a step and others must still decide (`status: 'pending'`).
       */
      status?: ApprovalStatus;
      reason?: DenialReason;
      outcome?: ApprovalOutcome;
    };

/** The answer to "+60 s" (`POST /api/chat/approve/extend`). */
export type ApprovalExtensionAnswer = { expiresAt: number; remainingMs: number } | { error: string };
