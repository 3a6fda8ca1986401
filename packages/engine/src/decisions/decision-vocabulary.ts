import type { CallProvenance, ContextSource } from '../provenance';

/*
 * The decision vocabulary: why a call was refused, how the audit log records the end of a
 * call, and what a person added to it. Every list and text keyed by a reason or an outcome
 * is typed by these, so a new reason is a type error wherever it still needs a word.
 */

/**
 * Why a call was not approved. Every path but an explicit allow denies: fail-closed.
 * `policy`: a policy rule refuses the call outright, without a card. `sign_in_required`:
 * the call needs someone holding a role, and only a signed-in user with a verified email
 * may ask for that (four eyes need a known requester); refused without a card. `quota`: the
 * call's rule allows no more calls in its window now; refused without a card. `policy_changed`:
 * the call waited under an older version of the policy and the one in force refuses it.
 * `no_approver`: a role step of the call's rule can never be filled (too few verified holders
 * of its role besides the requester); refused without a card, instead of waiting to expire.
 */
export const denialReasons = [
  'denied',
  'timeout',
  'aborted',
  'closed',
  'superseded',
  'withdrawn',
  'policy',
  'sign_in_required',
  'quota',
  'policy_changed',
  'no_approver',
] as const;

/** One of {@link denialReasons}. */
export type DenialReason = (typeof denialReasons)[number];

/**
 * How a tool call ended, as the audit log records it. `denied`, `timeout`,
 * `aborted` and `closed` are the approval shell's denial reasons; `replayed`
 * means the idempotency shell answered from an earlier execution; `approved_by_rule`
 * means the call ran without a card because the user allowed the tool for that chat;
 * `undone` means the user took back a write that ran (a row of its own, after the call's);
 * `escalated` means an open role step went to another role (a row of its own, while it waits);
 * `grant_created` and `grant_revoked` mean its requester made, or took back, a standing grant
 * from the call's approval (a row of their own); `taint_cleared` means a person cleared their
 * chat's mark of untrusted reads (a row of its own, naming the reads, never their content);
 * `withdrawn` means the requester took back a call that waited for someone else's step;
 * `asked` means an approver asked the requester of a waiting call a question, and `answered`
 * that the requester answered it (rows of their own, while the call waits; never the text).
 */
export const auditOutcomes = [
  'executed',
  'replayed',
  'denied',
  'timeout',
  'aborted',
  'closed',
  'superseded',
  'error',
  'rate_limited',
  'approved_by_rule',
  'undone',
  'escalated',
  'grant_created',
  'grant_revoked',
  'taint_cleared',
  'withdrawn',
  'asked',
  'answered',
] as const;

/** One of {@link auditOutcomes}. */
export type AuditOutcome = (typeof auditOutcomes)[number];

/** The audit outcome each denial is recorded as: a policy's refusals are denials, the row's detail says why. */
export const auditOutcomeOfDenial = {
  denied: 'denied',
  timeout: 'timeout',
  aborted: 'aborted',
  closed: 'closed',
  superseded: 'superseded',
  withdrawn: 'withdrawn',
  policy: 'denied',
  sign_in_required: 'denied',
  quota: 'denied',
  policy_changed: 'denied',
  no_approver: 'denied',
} as const satisfies Readonly<Record<DenialReason, AuditOutcome>>;

/** What the model reads when a call of `toolName` is refused for each reason: what happened, and not to retry. */
export const modelTextOfDenial: Readonly<Record<DenialReason, (toolName: string) => string>> = {
  denied: (toolName) =>
    `The user declined this ${toolName} call, so nothing was done. Do not retry this call; tell the user it was not carried out.`,
  timeout: (toolName) =>
    `The approval request for this ${toolName} call expired without an answer, so nothing was done. Do not retry this call; tell the user the request expired and they can ask again.`,
  aborted: (toolName) =>
    `The approval request for this ${toolName} call was cancelled before anyone answered, so nothing was done. Do not retry this call.`,
  closed: (toolName) =>
    `The chat was closed while this ${toolName} call waited for approval, so nothing was done. Do not retry this call.`,
  superseded: (toolName) =>
    `The user sent a new message instead of answering the approval request for this ${toolName} call, so nothing was done. Do not retry this call; answer the new message.`,
  withdrawn: (toolName) =>
    `The user withdrew this ${toolName} request while it waited for someone else's approval, so nothing was done. Do not retry this call; confirm to the user that the request was withdrawn.`,
  policy: (toolName) =>
    `This ${toolName} call is not allowed by the approval policy, so nothing was done and nobody can approve it. Do not retry this call; tell the user it is not permitted.`,
  quota: (toolName) =>
    `This ${toolName} call is over the approval policy's quota for now, so nothing was done and nobody was asked. Do not retry this call now; tell the user the limit was reached and when they can try again (retryAfterMs).`,
  policy_changed: (toolName) =>
    `The approval policy changed while this ${toolName} call waited, and the new policy does not allow it, so nothing was done. Do not retry this call; tell the user it is no longer permitted.`,
  no_approver: (toolName) =>
    `This ${toolName} call needs the approval of a role that too few people hold to ever approve it, so nothing was done and nobody was asked. Do not retry this call; tell the user it cannot be approved now and that the operators were told.`,
  sign_in_required: (toolName) =>
    `This ${toolName} call needs the approval of a supervisor (someone holding a role), and only a signed-in user with a verified email can ask for that, so nothing was done and no request was sent. Do not retry this call; tell the user to sign in with a verified email to ask a supervisor.`,
};

/** A call's one-line summary in each UI language (“Create ticket “printer broken”” / “创建工单「打印机坏了」”). */
export type AuditSummary = { en: string; zh: string };

/** What a person added to an approval, as the audit row keeps it. */
export type AuditDetail = {
  /** Why the call was refused, when it was (rows written before this field name it by the flags below: {@link denialReasonOfAudit}). */
  reason?: DenialReason;
  edited?: true;
  note?: string;
  /** The user ids of everyone who allowed or denied the call (a person's decision). */
  deciders?: string[];
  /** Who made the decision that settled the call, and who edited its input: display name and role. */
  decidedBy?: { name: string; role: string };
  editedBy?: { name: string; role: string };
  /** The label of the policy rule that applied. */
  rule?: string;
  /** How long the call waited for its decision, in milliseconds. */
  waitMs?: number;
  /** The role an open role step was handed to, nobody having decided it in time. */
  escalatedTo?: string;
  /** A policy rule refused the call without a card. */
  policy?: true;
  /** …because its rule needs a role's approval and the requester was a guest or unverified. */
  signInRequired?: true;
  /** …because a role step of its rule can never be filled: too few verified holders of the role. */
  noApprover?: true;
  /** …because the rule's quota was used up; a call fits again after `retryAfterMs`. */
  quota?: { retryAfterMs: number };
  /** Refused before any card: the tool's own check said the call cannot succeed (its reason). */
  precondition?: string;
  /** Denied by a re-judge: the call waited under an older policy and the one in force refuses it. */
  policyChanged?: true;
  /** Ran without a card, covered by this standing grant (its id); or the grant made or revoked. */
  grant?: string;
  /** What a standing grant made or revoked covers: its scope, its life, and the input paths its `when` tests (never values). */
  standingGrant?: { scope: 'chat' | 'me'; ttlMs: number; when?: string[] };
  /**
   * An untrusted output supplied some of the call's values (or was read earlier in its turn):
   * the input paths, their sources and the turn's untrusted reads — tool names and call ids, never values.
   */
  provenance?: Pick<CallProvenance, 'tainted' | 'provenance' | 'context' | 'untraced'>;
  /** Who asked the requester a question (`asked`): display name and the role that made them an approver. */
  askedBy?: { name: string; role: string };
  /** The question asked or answered (`asked`, `answered`): its id, and the text's length and SHA-256 — never the text. */
  question?: { id: string; length: number; sha256: string };
  /** The untrusted reads a person cleared from their chat's mark (`taint_cleared`): tool names and call ids. */
  clearedReads?: ContextSource[];
};

/**
 * Why the call of an audit row was refused, if it was: the reason the row names, or for a row
 * written before rows named it, the reason its outcome and flags stand for.
 */
export function denialReasonOfAudit(row: {
  outcome: AuditOutcome;
  detail?: AuditDetail | null;
}): DenialReason | undefined {
  const detail = row.detail ?? {};
  if (detail.reason !== undefined) return detail.reason;
  if (detail.signInRequired) return 'sign_in_required';
  if (detail.noApprover) return 'no_approver';
  if (detail.quota !== undefined) return 'quota';
  if (detail.policyChanged) return 'policy_changed';
  if (detail.policy) return 'policy';
  return denialReasons.find((reason) => reason === row.outcome);
}
