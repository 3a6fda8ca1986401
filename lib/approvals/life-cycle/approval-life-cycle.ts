import 'server-only';
import { inputDigestOf } from '@toolgate/engine/shells';
import type { ApprovalDecision, ApprovalPreview } from '@toolgate/engine/stores';
import type { Db } from '@/lib/db/engine';
import { writeTransaction } from '@/lib/db/write-transaction';
import { policyInForce } from '@/lib/policy';
import { keepDueWork, keepParkedDeadline, moveParkedDeadline } from './approval-deadlines';
import { publishApprovalChange, publishApprovalEvent, waitForApprovalEvent } from './approval-events';
import { approvalNotices } from './approval-notices';
import {
  type ApprovalRecord,
  type ApprovalStepRecord,
  claimDecision,
  decisionRecordOf,
  fillStep,
  getApproval,
  getApprovalSteps,
  insertApprovalRow,
  lockPendingForDecision,
  moveApproval,
  moveApprovalReturning,
  type NewApproval,
  pushDeadline,
  reopenAllowedSteps,
  setEditedInput,
} from './approval-rows';
import { denialReasonOf, isDeniedStatus, statusByRegistryReason } from './approval-states';
import { approvalTiming } from './approval-timing';
import { scheduleEscalation } from './escalate-approvals';

/*
 * The verbs the rest of the app calls to move an approval through its life cycle
 * (approval-states.ts). Each is a compare-and-set on the row and tells listeners
 * (approval-events.ts) what changed.
 */

/**
 * request: records a call that starts waiting for a person (status `pending`, its steps open),
 * with the version of the policy in force, which a later decision compares (`rejudgeApproval`).
 */
export async function requestApproval(db: Db, approval: NewApproval): Promise<void> {
  const policyVersion = approval.policyVersion ?? policyInForce()?.version;
  await insertApprovalRow(db, { ...approval, ...(policyVersion !== undefined && { policyVersion }) });
  publishApprovalChange(db, approval, approval.steps?.length ? approval.steps : [{ kind: 'requester' }]);
  const remindAt = approvalNotices().requested(db, approval);
  if (remindAt !== undefined) keepDueWork(db, remindAt);
  const escalateAt = scheduleEscalation(db, approval);
  if (escalateAt !== undefined) keepDueWork(db, escalateAt);
}

/** park: the turn that asked has ended; the row waits alone, its deadline kept by this process. */
export function parkApproval(db: Db, approvalId: string, expiresAt: number): void {
  keepParkedDeadline(db, approvalId, expiresAt);
}

/**
 * take (live turn): the waiting call woke up — by a decision, its deadline, Stop or a
 * registry error. Moves the row first if the wake-up was the deadline or Stop, then
 * takes on what the row says. Undefined means another turn (a continuation) took it
 * over: the caller must end quietly and run nothing.
 */
export async function takeWokenDecision(
  db: Db,
  approvalId: string,
  wake: ApprovalDecision,
): Promise<ApprovalDecision | undefined> {
  if (wake.approved) {
    // The usual wake-up, an allow: claimed in one statement that returns the row, no read before it.
    const row = await moveApprovalReturning(db, approvalId, 'approved', 'executing', { claim: true });
    if (row !== undefined) return approvedTaken(db, row);
  }
  const own = wake.approved ? undefined : statusByRegistryReason[wake.reason];
  let claimed = own !== undefined && (await moveApproval(db, approvalId, 'pending', own, { claim: true }));
  let row = await getApproval(db, approvalId);
  if (row?.status === 'pending') {
    // Woken without a decision on the row (a registry error): fail closed.
    claimed = await moveApproval(db, approvalId, 'pending', 'stopped', { claim: true });
    row = await getApproval(db, approvalId);
  }
  if (row === undefined) return { approved: false, reason: 'aborted' };
  if (claimed) {
    publishApprovalChange(db, row);
    approvalNotices().settled(db, approvalId, row.status);
  }
  if (row.status === 'approved') {
    if (await moveApproval(db, approvalId, 'approved', 'executing', { claim: true })) {
      return approvedTaken(db, row);
    }
  } else if (isDeniedStatus(row.status)) {
    if (claimed || (await claimDecision(db, approvalId, row.status))) {
      taken(row);
      return {
        approved: false,
        reason: denialReasonOf({ ...row, status: row.status }),
        ...(row.note !== undefined && { note: row.note }),
        ...(await decisionRecordOf(db, row)),
      };
    }
  }
  return undefined;
}

async function approvedTaken(db: Db, row: ApprovalRecord): Promise<ApprovalDecision> {
  taken(row);
  return {
    approved: true,
    ...(row.editedInput !== undefined && { input: row.editedInput }),
    ...(await decisionRecordOf(db, row)),
  };
}

/**
 * take (continuation): claims a decided row whose turn is gone. Returns the row and
 * whether it was allowed, or undefined when someone else took it (or nothing was decided).
 */
export async function takeParkedDecision(
  db: Db,
  approvalId: string,
): Promise<{ row: ApprovalRecord; approved: boolean } | undefined> {
  const row = await getApproval(db, approvalId);
  if (row === undefined) return undefined;
  const approved = row.status === 'approved';
  const claimed = approved
    ? await moveApproval(db, row.id, 'approved', 'executing', { claim: true })
    : isDeniedStatus(row.status) && (await claimDecision(db, row.id, row.status));
  if (!claimed) return undefined;
  taken(row);
  return { row, approved };
}

/**
 * Tells the decision's request that a turn took the call on, once the work already queued
 * has run: the claim is committed, and the request's answer (which waits for this) is then
 * written after the call has run and its output is on its way, not in the middle of it.
 */
function taken(row: ApprovalRecord): void {
  const event = { type: 'taken', approvalId: row.id, chatId: row.chatId } as const;
  setImmediate(() => publishApprovalEvent(event));
}

/** continue: records how an approved call's execution ended. */
export async function finishExecution(db: Db, approvalId: string | undefined, ok: boolean): Promise<void> {
  if (approvalId === undefined) return;
  // One statement: the move returns the id, chat and owner the change event names.
  const row = await moveApprovalReturning(db, approvalId, 'executing', ok ? 'executed' : 'failed');
  // Its steps are read for the event once the call's output is on its way, not before.
  if (row !== undefined) setImmediate(() => publishApprovalChange(db, row));
}

/**
 * Wakes a live turn with `wake` and resolves true once that turn says it took the decision
 * on (a notification, in this process or over Redis); false when `wake` woke nothing, or
 * when the turn has not said so within `approvalTiming.takeOverMs` and the row is not
 * claimed either (its instance is presumed gone; the caller continues the turn from the
 * database). Listens before waking, so the row is read only at that bound, never while the
 * woken turn needs the database.
 */
export function awaitTakeOver(db: Db, approvalId: string, wake: () => Promise<boolean>): Promise<boolean> {
  return waitForApprovalEvent(approvalId, 'taken', {
    start: wake,
    timeoutMs: approvalTiming.takeOverMs,
    isDone: async () => {
      const row = await getApproval(db, approvalId);
      return row === undefined || row.claimed;
    },
  });
}

/** Who is deciding: their user id (absent for a session without one) and the roles they hold now. */
export type Decider = { userId?: string; roles: readonly string[] };

/** Whether `decider` may fill `step` of `row` now (it is open, and theirs to fill). */
export function stepOpenTo(
  step: ApprovalStepRecord,
  row: Pick<ApprovalRecord, 'ownerId'>,
  decider: Decider,
): boolean {
  if (step.decision !== undefined) return false;
  if (step.kind === 'requester') return row.ownerId === null || row.ownerId === decider.userId;
  return decider.userId !== undefined && row.ownerId !== decider.userId && decider.roles.includes(step.role);
}

/** Whether `decider` may see the approval: its requester, or someone who holds a role one of its steps asks for. */
export function mayView(
  row: ApprovalRecord,
  steps: readonly ApprovalStepRecord[],
  decider: Decider,
): boolean {
  if (row.ownerId === null || row.ownerId === decider.userId) return true;
  return steps.some(
    (step) => step.kind === 'role' && decider.userId !== undefined && decider.roles.includes(step.role),
  );
}

/** What one person decides about one approval. */
export type StepDecision = {
  approvalId: string;
  /** When given, the approval must be of this chat. */
  chatId?: string;
  approved: boolean;
  /** The validated replacement input, with an allow. */
  editedInput?: unknown;
  /** The tool's preview of `editedInput`, when it declares one. */
  editedPreview?: ApprovalPreview;
  /** Their words with a "no". */
  note?: string;
  decider: Decider;
  /** `inputDigestOf` the input the person saw: when given and the input has changed since, nothing is decided (`stale`). */
  inputDigest?: string;
};

/**
 * How a decision ended: `waiting` means more steps must allow; `not-found` that this person
 * may not decide it; `stale` that the input changed since they saw it (nothing decided).
 */
export type StepOutcome =
  | { status: 'approved' | 'denied' | 'waiting'; row: ApprovalRecord }
  | { status: 'not-found'; row?: ApprovalRecord }
  | { status: 'stale' };

class NotDecidable extends Error {}

class StaleInput extends Error {}

/** Whether the digest a person sent is not that of the input the call would run with now. */
export function isStaleDigest(row: ApprovalRecord, inputDigest: string | undefined): boolean {
  return inputDigest !== undefined && inputDigest !== inputDigestOf(row.editedInput ?? row.input);
}

/**
 * Whether `decider` may decide this approval now (a step is open to them, or, with a deny,
 * they are its requester). Asked before anything in the decision is judged, so someone who
 * may not decide learns nothing about the tool or the policy from the answer.
 */
export async function mayDecide(
  db: Db,
  row: ApprovalRecord,
  { approved, decider }: Pick<StepDecision, 'approved' | 'decider'>,
  now = Date.now(),
): Promise<boolean> {
  if (row.status !== 'pending' || row.expiresAt <= now) return false;
  return planFor(row, await getApprovalSteps(db, row.id), { approved, decider }) !== undefined;
}

type Plan = { kind: 'fill'; position: number } | { kind: 'deny-as-requester' } | { kind: 'repeat' };

function planFor(
  row: ApprovalRecord,
  steps: readonly ApprovalStepRecord[],
  { approved, decider }: Pick<StepDecision, 'approved' | 'decider'>,
): Plan | undefined {
  const isRequester = row.ownerId === null || row.ownerId === decider.userId;
  const decidedBefore =
    decider.userId !== undefined && steps.some((step) => step.decidedBy === decider.userId);
  // One person fills at most one step: once they have, no other step is theirs.
  const open = decidedBefore ? undefined : steps.find((step) => stepOpenTo(step, row, decider));
  if (open !== undefined) return { kind: 'fill', position: open.position };
  // The requester may always end their own call with a "no", though they cannot fill a role step.
  if (!approved && isRequester) return { kind: 'deny-as-requester' };
  // A second decision from someone who filled a step changes nothing.
  if (decidedBefore && mayView(row, steps, decider)) return { kind: 'repeat' };
  return undefined;
}

/**
 * decide: one person's decision fills one step they may fill (compare-and-set under the
 * row's lock, so two instances deciding two steps at once end approved exactly once).
 * Any deny ends the call denied; the last allow approves it; an edited input re-opens
 * the allows given to the earlier input. Unknown, settled, expired, another chat's, or
 * nobody's-to-decide approvals all answer `not-found`.
 */
export async function recordDecision(db: Db, decision: StepDecision, now = Date.now()): Promise<StepOutcome> {
  let decided: { outcome: StepOutcome & { row: ApprovalRecord }; steps: readonly ApprovalStepRecord[] };
  try {
    // Everything is judged under the row's lock, on the row the lock returns: no read before it.
    decided = await writeTransaction(db, async (transaction) => {
      const row = await lockPendingForDecision(transaction, decision.approvalId, now);
      if (row === undefined || (decision.chatId !== undefined && row.chatId !== decision.chatId)) {
        throw new NotDecidable();
      }
      let steps = await getApprovalSteps(transaction, row.id);
      const stepsBefore = steps;
      const plan = planFor(row, steps, decision);
      if (plan === undefined) throw new NotDecidable();
      // Under the row's lock: an edit by another approver cannot slip between this check and the decision.
      if (isStaleDigest(row, decision.inputDigest)) throw new StaleInput();
      const done = (status: 'approved' | 'denied' | 'waiting') => ({
        outcome: { status, row },
        steps: stepsBefore,
      });
      if (plan.kind === 'repeat') return done('waiting');
      const userId = decision.decider.userId ?? '';
      if (!decision.approved) {
        if (plan.kind === 'fill')
          await fillStep(transaction, row.id, plan.position, { decision: 'deny', userId });
        await moveApproval(transaction, row.id, 'pending', 'denied', { decision: { note: decision.note } });
        return done('denied');
      }
      if (plan.kind !== 'fill') throw new NotDecidable();
      if (decision.editedInput !== undefined) {
        await reopenAllowedSteps(transaction, row.id);
        await setEditedInput(
          transaction,
          row.id,
          decision.editedInput,
          decision.editedPreview,
          decision.decider.userId,
        );
        steps = steps.map((step) => (step.decision === 'allow' ? { ...step, decision: undefined } : step));
      }
      await fillStep(transaction, row.id, plan.position, { decision: 'allow', userId });
      const complete = steps.every((step) => step.position === plan.position || step.decision === 'allow');
      if (!complete) return done('waiting');
      await moveApproval(transaction, row.id, 'pending', 'approved', {
        decision: {
          editedInput: decision.editedInput,
          ...(decision.editedInput !== undefined && { editedBy: decision.decider.userId }),
        },
      });
      return done('approved');
    });
  } catch (error) {
    if (error instanceof NotDecidable) return notDecided(db, decision, now);
    if (error instanceof StaleInput) return { status: 'stale' };
    throw error;
  }
  const { outcome, steps } = decided;
  // A decision never changes which roles the steps name: the steps read under the lock tell who may see it.
  publishApprovalChange(db, outcome.row, steps);
  if (outcome.status === 'approved' || outcome.status === 'denied') {
    approvalNotices().settled(db, decision.approvalId, outcome.status);
  }
  return outcome;
}

/**
 * The `not-found` of a decision nothing came of, with the row when it is a pending one of the
 * decision's chat past its deadline (the caller settles it). Read only on this path.
 */
async function notDecided(db: Db, decision: StepDecision, now: number): Promise<StepOutcome> {
  const row = await getApproval(db, decision.approvalId);
  const expired =
    row !== undefined &&
    (decision.chatId === undefined || row.chatId === decision.chatId) &&
    row.status === 'pending' &&
    row.expiresAt <= now;
  return expired ? { status: 'not-found', row } : { status: 'not-found' };
}

/** Why an extension was refused: gone (answered as unknown) or out of extensions. */
export type ExtendOutcome = { expiresAt: number } | { refused: 'not-found' | 'exhausted' };

/**
 * extend: gives a pending approval `approvalTiming.extensionMs` more, at most
 * `approvalTiming.maxExtensions` times; only its requester may.
 */
export async function extendApproval(
  db: Db,
  approvalId: string,
  { chatId, ownerId, now = Date.now() }: { chatId: string; ownerId: string | null; now?: number },
): Promise<ExtendOutcome> {
  const expiresAt = await pushDeadline(db, approvalId, {
    chatId,
    ownerId,
    now,
    byMs: approvalTiming.extensionMs,
  });
  if (expiresAt === undefined) {
    const latest = await getApproval(db, approvalId);
    const exhausted = latest?.status === 'pending' && latest.expiresAt > now && latest.chatId === chatId;
    return { refused: exhausted ? 'exhausted' : 'not-found' };
  }
  moveParkedDeadline(approvalId, expiresAt);
  const row = await getApproval(db, approvalId);
  if (row !== undefined) publishApprovalChange(db, row);
  return { expiresAt };
}
