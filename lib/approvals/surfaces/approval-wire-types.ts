/**
 * The JSON the approval routes answer and take, as types only: the server builds these
 * shapes (read-approvals.ts, resolve-approval.ts, chat-approval-rules.ts) and the browser reads them
 * (components/api-types.ts). Every import here is a type from a module without server
 * code, and `import type` is erased at build, so nothing reaches the browser bundle.
 */
import type { CallProvenance, DenialReason } from '@toolgate/engine';
import type { ValueSource } from '@toolgate/engine/provenance';
import type { LocalizedPreview } from '@/lib/tools/localize-preview';
import type { ApprovalStatus } from './approval-states';

/** One step as `GET /api/approvals/:id` shows it. */
export type ApprovalStepView = {
  kind: 'requester' | 'role';
  role?: string;
  decision?: 'allow' | 'deny';
  decidedBy?: { name: string };
  /** Nobody decided the step in time: it went to this role (then also `role`). */
  escalatedTo?: string;
};

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

/**
 * A question an approver asked the requester while the call waited, and the requester's answer
 * (their next chat message) once they sent it. Both texts are people's words: draw them as text.
 */
export type ApprovalQuestionView = {
  id: string;
  question: string;
  /** Who asked: display name and the role that made them an approver of the call. */
  askedBy: { name: string; role: string };
  /** ISO 8601. */
  askedAt: string;
  answer?: string;
  answeredAt?: string;
};

/** An approval as its requester and its approvers see it (`GET /api/approvals/:id`). */
export type ApprovalView = {
  approvalId: string;
  chatId: string;
  tool: string;
  /** The call in one line, per UI language; absent for tools without a summary. */
  summary?: Record<string, string>;
  /** The input the call would run with (the person's edit, once there is one). */
  input: unknown;
  /** `inputDigestOf(input)`: a decision that sends it is refused (409) once the input has changed. */
  inputDigest: string;
  /** The tool's preview of that input, in the viewer's language, when it declares one. */
  preview?: LocalizedPreview;
  /** Why a tool that declares a preview has none for this call (it failed or took too long). */
  previewNote?: string;
  status: ApprovalStatus;
  /** Why a call ended without running (`denied`, `timeout`, …, `policy_changed`); absent while it has not. */
  reason?: DenialReason;
  /** How the call ended, once it has (see {@link ApprovalOutcome}). */
  outcome?: ApprovalOutcome;
  /** When a newer policy replaced the steps while the call waited (ISO 8601). */
  policyChanged?: string;
  requester: { name: string };
  steps: ApprovalStepView[];
  /** The policy rule that asked, when one did. */
  rule?: string;
  /** Input paths an untrusted output supplied and the user did not type ([] when none, or not traced). */
  tainted: string[];
  /** Each traced input path's sources: the user's text, an earlier tool output, or the model ({} when not traced). */
  provenance: CallProvenance['provenance'];
  /** Untrusted reads the call follows (earlier in its turn, or not cleared in its marked chat), when there are any. */
  context?: CallProvenance['context'];
  /** The input was past the tracing limits (too many values, too deep, too long): counted as tainted. */
  untraced?: true;
  /** Questions approvers asked the requester, oldest first, with the answers (the server always sends it; [] when none). */
  questions?: ApprovalQuestionView[];
  expiresAt: number;
  remainingMs: number;
  /**
   * What the person asking may do now: fill a step (allow or deny), only deny (the requester of
   * a role step), or ask the requester a question (an approver who may decide a role step);
   * and what they decided, once they filled a step (`edit`: they allowed an input they changed).
   */
  viewer: {
    canAllow: boolean;
    canDeny: boolean;
    isRequester: boolean;
    canAsk?: boolean;
    decided?: 'allow' | 'edit' | 'deny';
  };
};

/** A listed approval: the view, plus the user message that led to the call and when it was asked (ISO 8601). */
export type ListedApproval = ApprovalView & { chatExcerpt: string; askedAt: string };

/** An approval in "decided by me": the view, plus what this person decided and when. */
export type DecidedApproval = ApprovalView & {
  chatExcerpt: string;
  myDecision: 'allow' | 'deny';
  decidedAt: string;
};

/** Where one input value was found, as an approval view lists it. */
export type ValueSourceView = ValueSource;

/** One page of an inbox list (`GET /api/approvals`, `GET /api/approvals/decided`); `nextCursor` asks for the next. */
export type ApprovalPage<APPROVAL> = { approvals: APPROVAL[]; nextCursor: string | null };

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
