import 'server-only';
import { validateToolInput } from '@toolgate/engine';
import { isTainted } from '@toolgate/engine/provenance';
import type { ApprovalPreview } from '@toolgate/engine/stores';
import { getConfig } from '@/lib/config';
import { addApprovalRule, type Db, getDb } from '@/lib/db';
import { policyVerdict } from '@/lib/policy';
import { getApprovalRegistry } from '@/lib/server/stores';
import { checkToolPrecondition } from '@/lib/tools/check-tool-precondition';
import { computeToolPreview } from '@/lib/tools/compute-tool-preview';
import type { PreconditionRefusal } from '@/lib/tools/tool-descriptor';
import { buildWorkerTable } from '@/lib/turn-table/build-worker-table';
import type {
  ApprovalDecisionAnswer,
  ApprovalExtensionAnswer,
  DecisionRefusalCode,
} from './approval-answers';
import {
  type Decider,
  extendApproval,
  isStaleDigest,
  mayDecide,
  mayView,
  recordDecision,
  stepOpenTo,
} from './approval-life-cycle';
import { outcomeOf, resultsOfCalls, settledOutcome } from './approval-outcome';
import { type ApprovalRecord, fillStep, getApproval, getApprovalSteps } from './approval-rows';
import { denialReasonOf, isDeniedStatus } from './approval-states';
import { approvalTiming } from './approval-timing';
import { rejudgeBeforeDecision, wakeSettledCall } from './rejudge-approval';
import { settleChatApprovals } from './settle-approvals';
import {
  createStandingGrant,
  type GrantRequest,
  grantRefusalOf,
  listStandingGrants,
  maxGrantsPerUser,
} from './standing-grants';

/**
 * A person's decision on one approval card, as `POST /api/chat/approve` parsed it (its schema
 * sits beside the route). `chatId` may be omitted (an approver need not know the chat); when
 * given it must be the approval's. `input` (a full replacement of the call's input) and `remember`
 * go with an allow; `reason` with a deny. `inputDigest` is the view's digest of the input the
 * person saw (for an edit: the input they started from).
 */
export type ApprovalDecisionRequest = {
  approvalId: string;
  chatId?: string;
  approved: boolean;
  input?: Record<string, unknown>;
  /** "chat" (allow the tool for the rest of the chat), or a standing grant. */
  remember?: 'chat' | GrantRequest;
  reason?: string;
  inputDigest?: string;
};

/**
 * How a decision was answered: the route sends `body` with `status`.
 * `parked` names a settled call no live turn took over: the caller continues its turn from the database.
 */
export type ApprovalDecisionResult =
  | {
      status: 200;
      /** `reason: 'policy_changed'`: a re-judge under a newer policy settled the call, not this decision. */
      body: Exclude<ApprovalDecisionAnswer, { error: string }>;
      parked?: { approvalId: string; chatId: string };
    }
  | { status: 400; body: DecisionRefusal & { fieldErrors?: Record<string, string[]> } }
  | { status: 404; body: Extract<ApprovalDecisionAnswer, { error: string }> }
  | { status: 503; body: { error: string } }
  | { status: 409; body: { error: 'stale' | 'policy_changed' } };

const notFound = {
  status: 404,
  body: { error: 'No pending approval with that id that you may decide' },
} as const;

const stale = { status: 409, body: { error: 'stale' } } as const;

/** A decision refused as sent: the reason in English, and its code and values for a card to translate. */
type DecisionRefusal = { error: string; code?: DecisionRefusalCode; params?: Record<string, string> };

const taintedRuleRefusal: DecisionRefusal = {
  error:
    'remember: this call carries values from an untrusted source; "allow for this chat" never covers such a call',
  code: 'tainted_rule',
};

/** A tool's precondition refusal as a decision's refusal (its first sentence, and the refund's figures). */
function preconditionRefusal(failed: PreconditionRefusal): DecisionRefusal {
  const error = firstSentenceOf(failed.message);
  if (failed.reason !== 'exceeds_remaining' && failed.reason !== 'currency_mismatch') return { error };
  const params = Object.fromEntries(
    ['orderId', 'remaining', 'currency', 'requestedCurrency', 'requested'].flatMap((key) => {
      const value = failed[key];
      return typeof value === 'string' || typeof value === 'number' ? [[key, String(value)]] : [];
    }),
  );
  return { error, code: failed.reason, params };
}

/** Who decides: a user id alone (the requester's own card), or the user with the roles they hold now. */
export type DeciderInput = string | { id: string; roles: readonly string[] } | undefined;

function deciderOf(input: DeciderInput): Decider {
  if (input === undefined) return { roles: [] };
  if (typeof input === 'string') return { userId: input, roles: [] };
  return { userId: input.id, roles: input.roles };
}

/** The tool the approval is for, from the worker table its turn had. */
function toolOf(db: Db, row: ApprovalRecord) {
  const { tools } = buildWorkerTable(
    db,
    row.worker,
    { chatId: row.chatId, ownerId: row.ownerId ?? '' },
    getConfig(),
  );
  return Object.hasOwn(tools, row.toolName) ? tools[row.toolName] : undefined;
}

/**
 * Records a decision and sees that it is carried out.
 *
 * The decision fills one step this person may fill (`decideApproval` in lib/approvals:
 * a compare-and-set under the row's lock): of double clicks, two tabs and ten concurrent
 * requests exactly one counts; an unknown id, another chat, a person who may not decide,
 * a settled or expired approval all answer the same 404. A decision whose `inputDigest` is
 * not that of the input now (another approver edited it) answers 409 and decides nothing.
 * An edited input is validated with the tool's own schema, once the person is known to
 * be allowed to decide (400, and the call stays pending). An approval asked under an older
 * policy is first re-judged under the one in force (`rejudgeBeforeDecision`; a deny is never
 * turned into an approval): settled by it → 200 with `reason: 'policy_changed'`; its steps replaced and none left to this person → 409
 * `policy_changed`, nothing of theirs decided. When the decision
 * settles the call, the waiting call is woken wherever it waits; if no turn takes it on
 * (its process is gone, or it parked), the answer says so (`parked`) and the caller, which
 * runs turns, continues it from the database: this folder never runs a turn.
 */
export async function decideApproval(
  decision: ApprovalDecisionRequest,
  who?: DeciderInput,
): Promise<ApprovalDecisionResult> {
  const { approvalId, chatId, approved, remember, inputDigest } = decision;
  const reason = decision.reason === '' ? undefined : decision.reason;
  const decider = deciderOf(who);
  const db = await getDb();

  // Asked under an older policy: judged under the one in force before anything of this decision is.
  const rejudged = await rejudgeBeforeDecision(db, { approvalId, chatId, approved, decider });
  if (rejudged.kind === 'policy-changed') return { status: 409, body: { error: 'policy_changed' } };
  if (rejudged.kind === 'settled') {
    // The click is this person's even though the policy settled the call: "decided by me" lists it.
    if (rejudged.status === 'denied') await recordClickOnSettled(db, rejudged.row, { approved, decider });
    const body = { status: rejudged.status, reason: 'policy_changed' } as const;
    if (await wakeSettledCall(db, rejudged.row, rejudged.status === 'approved')) return { status: 200, body };
    return { status: 200, body, parked: { approvalId, chatId: rejudged.row.chatId } };
  }

  let editedInput: unknown;
  let editedPreview: ApprovalPreview | undefined;
  if (decision.input !== undefined) {
    const row = await getApproval(db, approvalId);
    // A settled approval answers 404 before its input is judged, as for any other decision.
    if (row === undefined || (chatId !== undefined && row.chatId !== chatId)) return notFound;
    // Who may decide is asked first: to anyone else the input is never judged, and the answer is the unknown id's.
    if (!(await mayDecide(db, row, { approved, decider })))
      return await notFoundFor(db, approvalId, chatId, decider);
    if (isStaleDigest(row, inputDigest)) return stale;
    const tool = toolOf(db, row);
    if (tool === undefined) return notFound;
    const validation = await validateToolInput(tool, decision.input);
    if (!validation.ok) {
      return { status: 400, body: { error: validation.error, fieldErrors: validation.fieldErrors } };
    }
    editedInput = validation.value;
    // An edit must not need other approvers than the call asked for: a requester could
    // otherwise edit a small refund into a large one and allow it alone.
    const refusal = policyRefusalOf(row.toolName, editedInput, await getApprovalSteps(db, approvalId));
    if (refusal !== undefined) return { status: 400, body: refusal };
    // An edit that cannot succeed (a refund above what is left) is refused as a request would be.
    const context = { userId: row.ownerId ?? '', chatId: row.chatId };
    const failed = await checkToolPrecondition(db, { toolName: row.toolName, input: editedInput, context });
    if (failed !== undefined) return { status: 400, body: preconditionRefusal(failed) };
    // The card of whoever decides next shows what the edited input would do.
    editedPreview = await computeToolPreview(db, {
      toolName: row.toolName,
      input: editedInput,
      context: { userId: row.ownerId ?? '', chatId: row.chatId },
    });
  }

  // "For this chat" and a standing grant are judged before anything is decided: a refusal (400) changes nothing.
  let grantSource: Parameters<typeof createStandingGrant>[2] | undefined;
  if (approved && remember === 'chat') {
    const row = await getApproval(db, approvalId);
    if (row === undefined || (chatId !== undefined && row.chatId !== chatId)) return notFound;
    if (!(await mayDecide(db, row, { approved, decider }))) return notFound;
    // The person would allow the tool, not the outsider's values: nothing widens a tainted card.
    if (isTainted(row.provenance)) return { status: 400, body: taintedRuleRefusal };
  }
  if (approved && typeof remember === 'object') {
    const row = await getApproval(db, approvalId);
    if (row === undefined || (chatId !== undefined && row.chatId !== chatId)) return notFound;
    if (!(await mayDecide(db, row, { approved, decider })))
      return await notFoundFor(db, approvalId, chatId, decider);
    const steps = await getApprovalSteps(db, approvalId);
    const source = {
      approvalId,
      chatId: row.chatId,
      ownerId: row.ownerId,
      toolName: row.toolName,
      requesterOnly: steps.every((step) => step.kind === 'requester'),
      ...(row.provenance !== undefined && { provenance: row.provenance }),
    };
    const input = editedInput ?? row.editedInput ?? row.input;
    const refusal = grantRefusalOf(remember, source, { deciderId: decider.userId, input });
    if (refusal !== undefined) return { status: 400, body: { error: refusal } };
    if (row.ownerId === null) return notFound;
    if ((await listStandingGrants(db, row.ownerId)).length >= maxGrantsPerUser)
      return {
        status: 400,
        body: {
          error: `remember: you hold ${maxGrantsPerUser} standing grants; revoke one first`,
          code: 'grant_limit',
          params: { max: String(maxGrantsPerUser) },
        },
      };
    grantSource = { ...source, ownerId: row.ownerId };
  }

  const now = Date.now();
  const outcome = await recordDecision(
    db,
    {
      approvalId,
      chatId,
      approved,
      editedInput,
      editedPreview,
      note: approved ? undefined : reason,
      decider,
      inputDigest,
    },
    now,
  );
  if (outcome.status === 'not-found') {
    // Past its deadline: settle it now, the timer that would have may be gone with its server.
    const row = outcome.row;
    if (row?.status === 'pending' && row.expiresAt <= now) await settleChatApprovals(db, row.chatId, { now });
    return await notFoundFor(db, approvalId, chatId, decider);
  }
  if (outcome.status === 'stale') return stale;
  const { row } = outcome;
  if (outcome.status === 'waiting') return { status: 200, body: { status: 'waiting' } };

  if (grantSource !== undefined && typeof remember === 'object')
    await createStandingGrant(db, remember, grantSource);
  // Stored before the call wakes, so a call of the same tool right after already finds it.
  // It stands in only for a requester step, so only a call that asked nobody else records it.
  if (approved && remember === 'chat' && row.ownerId !== null && row.ownerId === decider.userId) {
    const steps = await getApprovalSteps(db, approvalId);
    if (steps.every((step) => step.kind === 'requester')) {
      await addApprovalRule(db, { chatId: row.chatId, ownerId: row.ownerId, toolName: row.toolName });
    }
  }

  const body = { status: approved ? 'approved' : 'denied' } as const;
  if (await wakeSettledCall(db, row, approved)) return { status: 200, body };
  return { status: 200, body, parked: { approvalId, chatId: row.chatId } };
}

/**
 * The 404 of a decision that cannot count. To someone who may still see the approval (its
 * requester, or a holder of a role it asks for) it says why: the call ended (`status`,
 * `reason`, `outcome`), or it still waits for others (`status: 'pending'`). Anyone else gets
 * the unknown id's answer, so nothing leaks.
 */
async function notFoundFor(
  db: Db,
  approvalId: string,
  chatId: string | undefined,
  decider: Decider,
): Promise<ApprovalDecisionResult> {
  const row = await getApproval(db, approvalId);
  if (row === undefined || (chatId !== undefined && row.chatId !== chatId)) return notFound;
  if (!mayView(row, await getApprovalSteps(db, approvalId), decider)) return notFound;
  const result = (await resultsOfCalls(db, [row])).get(row.toolCallId);
  const outcome = outcomeOf(row, result);
  return {
    status: 404,
    body: {
      error: notFound.body.error,
      status: row.status,
      ...(isDeniedStatus(row.status) && { reason: denialReasonOf({ ...row, status: row.status }) }),
      ...(outcome !== undefined && { outcome }),
    },
  };
}

/**
 * Records what a person clicked on a call the policy in force settled first (a denial): on the
 * step that was open to them, so the call is among what they decided, with its real end.
 */
async function recordClickOnSettled(
  db: Db,
  row: ApprovalRecord,
  { approved, decider }: { approved: boolean; decider: Decider },
): Promise<void> {
  if (decider.userId === undefined) return;
  const steps = await getApprovalSteps(db, row.id);
  if (steps.some((step) => step.decidedBy === decider.userId)) return;
  const open = steps.find((step) => stepOpenTo(step, row, decider));
  if (open === undefined) return;
  await fillStep(db, row.id, open.position, {
    decision: approved ? 'allow' : 'deny',
    userId: decider.userId,
  });
}

/**
 * The decision's answer with what the call did: once a decision settled it, adds its
 * `outcome` (`executed` with the result, `denied`, …). For someone other than the requester
 * (an approver, who has no stream of the turn) it first waits briefly for the call to run;
 * the requester's own card follows the turn's stream, so their answer never waits on the tool.
 * Call it after the settled call's turn was continued (the caller runs turns).
 */
export async function withDecisionOutcome(
  approvalId: string,
  result: ApprovalDecisionResult,
  who?: DeciderInput,
): Promise<ApprovalDecisionResult> {
  if (result.status !== 200 || result.body.status === 'waiting') return result;
  const db = await getDb();
  const deciderId = deciderOf(who).userId;
  const row = await getApproval(db, approvalId);
  const waits = row !== undefined && deciderId !== undefined && row.ownerId !== deciderId;
  const outcome = await settledOutcome(db, approvalId, { waitMs: waits ? undefined : 0 });
  return outcome === undefined ? result : { ...result, body: { ...result.body, outcome } };
}

/** The first sentence of a refusal written for the model: the part that says why, for a person. */
function firstSentenceOf(message: string): string {
  const end = message.indexOf('. ');
  return end === -1 ? message : message.slice(0, end + 1);
}

/** Why the policy does not let an edited input through this approval, or undefined when it does. */
function policyRefusalOf(
  toolName: string,
  input: unknown,
  steps: readonly { kind: string; role?: string }[],
): DecisionRefusal | undefined {
  const verdict = policyVerdict(toolName, input);
  if (verdict.kind === 'deny')
    return {
      error: `The approval policy refuses this input (${verdict.label})`,
      code: 'policy_refuses_input',
      params: { label: verdict.label },
    };
  const wanted: readonly { kind: string; role?: string }[] =
    verdict.kind === 'approve' ? verdict.steps : [{ kind: 'requester' }];
  const same =
    wanted.length === steps.length &&
    wanted.every((step, index) => {
      const had = steps[index];
      return had?.kind === step.kind && had.role === step.role;
    });
  return same
    ? undefined
    : {
        error:
          'This input needs other approvers than the call asked for: deny it and ask again with the new input',
        code: 'needs_other_approvers',
      };
}

/** How much time one "+60 s" adds. */
export const approvalExtensionMs = approvalTiming.extensionMs;

/** How an extension was answered. */
export type ApprovalExtensionResult =
  | { status: 200; body: Exclude<ApprovalExtensionAnswer, { error: string }> }
  | { status: 400 | 404 | 409 | 503; body: { error: string } };

/**
 * Gives a pending approval more time: its deadline moves by {@link approvalExtensionMs},
 * on the row (compare-and-set, at most three times) and for the call that waits, in
 * whichever process it waits. Only the requester may. Unknown, foreign and settled
 * approvals answer 404, as for a decision; a fourth extension answers 409.
 */
export async function extendApprovalDeadline(
  { approvalId, chatId }: { approvalId: string; chatId: string },
  ownerId?: string,
): Promise<ApprovalExtensionResult> {
  const db = await getDb();
  const row = await getApproval(db, approvalId);
  const now = Date.now();
  if (
    row === undefined ||
    row.chatId !== chatId ||
    (row.ownerId !== null && row.ownerId !== ownerId) ||
    row.status !== 'pending' ||
    row.expiresAt <= now
  ) {
    return notFound;
  }
  const extended = await extendApproval(db, approvalId, { chatId, ownerId: ownerId ?? null, now });
  if ('refused' in extended) {
    if (extended.refused === 'exhausted') {
      return { status: 409, body: { error: 'This approval has already been given more time three times' } };
    }
    return notFound;
  }
  const { expiresAt } = extended;
  try {
    await getApprovalRegistry().extend(approvalId, chatId, expiresAt, row.ownerId ?? undefined);
  } catch {
    // Redis unreachable: the row holds the new deadline; the waiting call's own timer may
    // still end it early, which fails closed.
  }
  return { status: 200, body: { expiresAt, remainingMs: Math.max(0, expiresAt - Date.now()) } };
}
