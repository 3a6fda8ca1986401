/**
 * The JSON the approval routes answer and take, as types only: the server builds these
 * shapes (read-approvals.ts; what the life cycle answers, a decision's outcome among them, in
 * life-cycle/approval-answers.ts, re-exported here) and the browser reads them
 * (components/api-types.ts). Every import here is a type from a module without server
 * code, and `import type` is erased at build, so nothing reaches the browser bundle.
 */
import type { CallProvenance, DenialReason } from '@toolgate/engine';
import type { ValueSource } from '@toolgate/engine/provenance';
import type { LocalizedPreview } from '@/lib/tools/localize-preview';
import type { ApprovalOutcome } from '../life-cycle/approval-answers';
import type { ApprovalStatus } from '../life-cycle/approval-states';

export type {
  ApprovalDecisionAnswer,
  ApprovalExtensionAnswer,
  ApprovalOutcome,
  ChatApprovalRule,
  DecisionRefusalCode,
} from '../life-cycle/approval-answers';

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
