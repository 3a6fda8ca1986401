import 'server-only';
import { isTainted } from '@toolgate/engine/provenance';
import { withPersonForTaint } from '@toolgate/engine/shells';
import type { Db } from '@/lib/db/engine';
import { writeTransaction } from '@/lib/db/write-transaction';
import { policyInForce, policyVerdict } from '@/lib/policy';
import { getApprovalRegistry } from '@/lib/server/stores';
import { keepDueWork } from './approval-deadlines';
import { publishApprovalChange } from './approval-events';
import { awaitTakeOver, type Decider, mayDecide, mayView } from './approval-life-cycle';
import { approvalNotices } from './approval-notices';
import { mayAskRoles } from './approval-policy';
import {
  type ApprovalRecord,
  type ApprovalStepRecord,
  type ApprovalStepSpec,
  getApproval,
  getApprovalSteps,
  lockPendingForDecision,
  moveApproval,
  movePolicyVersion,
  replaceSteps,
} from './approval-rows';
import { scheduleEscalation } from './escalate-approvals';

/**
 * What a re-judge did: nothing (same version, no policy, no longer pending, or another
 * instance re-judged it first); ended the call `denied` (reason `policy_changed`); or
 * replaced its steps, which may have left every step allowed (`approved`).
 */
export type Rejudgement =
  | { kind: 'unchanged' }
  | { kind: 'denied' | 'approved' | 'replaced'; row: ApprovalRecord };

/** What the policy in force asks of a waiting call: its refusal, or its steps and the rule that names them. */
type Judgement = { kind: 'deny'; rule: string } | { kind: 'steps'; steps: ApprovalStepSpec[]; rule?: string };

/**
 * The call judged as the approval shell would judge it now, on the input it would run with:
 * a tainted call keeps at least a requester step, no matching rule means one requester step
 * (the call already waits for a person), and a role step its requester may no longer ask for
 * (a guest, an unverified email) refuses it.
 */
async function judgeNow(db: Db, row: ApprovalRecord): Promise<Judgement> {
  const tainted = isTainted(row.provenance);
  const verdict = policyVerdict(row.toolName, row.editedInput ?? row.input, { tainted });
  if (verdict.kind === 'deny') return { kind: 'deny', rule: verdict.label };
  const rule = verdict.kind === 'none' ? undefined : verdict.label;
  const asked = verdict.kind === 'approve' ? verdict.steps : [];
  const ask = tainted ? withPersonForTaint({ kind: 'confirm', steps: asked }) : undefined;
  const named = ask?.kind === 'confirm' && ask.steps !== undefined ? ask.steps : asked;
  const steps: ApprovalStepSpec[] = named.length > 0 ? [...named] : [{ kind: 'requester' }];
  // Only a rule names a role step.
  if (
    verdict.kind === 'approve' &&
    steps.some((step) => step.kind === 'role') &&
    (row.ownerId === null || !(await mayAskRoles(db, row.ownerId)))
  ) {
    return { kind: 'deny', rule: verdict.label };
  }
  return { kind: 'steps', steps, ...(rule !== undefined && { rule }) };
}

/** The new steps, each keeping the allow of an old step of the same kind and role (each old allow kept once). */
function keepAllows(
  old: readonly ApprovalStepRecord[],
  wanted: readonly ApprovalStepSpec[],
): (ApprovalStepSpec & Pick<ApprovalStepRecord, 'decision' | 'decidedBy' | 'decidedAt'>)[] {
  const allows = old.filter((step) => step.decision === 'allow');
  return wanted.map((step) => {
    const index = allows.findIndex(
      (had) =>
        had.kind === step.kind && (had.kind !== 'role' || step.kind !== 'role' || had.role === step.role),
    );
    if (index === -1) return step;
    const [had] = allows.splice(index, 1);
    return { ...step, decision: 'allow', decidedBy: had.decidedBy, decidedAt: had.decidedAt };
  });
}

/** Whether `row` waits under another version of the policy than `current` (which exists), pending and before its deadline. */
function mayBeRejudged(row: ApprovalRecord, current: string | undefined, now: number): boolean {
  return (
    current !== undefined &&
    row.policyVersion !== undefined &&
    row.policyVersion !== current &&
    row.status === 'pending' &&
    row.expiresAt > now
  );
}

class NotRejudged extends Error {}

class ChangedMeanwhile extends Error {}

/**
 * rejudge: a pending approval asked under an older version of the policy is judged again
 * under the one in force. Refused now → `denied`, end reason `policy_changed`. Otherwise its
 * steps are replaced by the new ones (an allow kept where the same step remains); all of
 * them allowed → `approved`, unless `mayApprove` is false (a re-judge set off by a deny):
 * then nothing changes, for a deny never turns into an approval. The row's `policy_version`
 * becomes the current one. Under the row's lock, with a compare-and-set on `policy_version`,
 * so of several instances one re-judges it, once. Then listeners, the webhook and new role
 * holders are told.
 */
export async function rejudgeApproval(
  db: Db,
  approvalId: string,
  now = Date.now(),
  { mayApprove = true }: { mayApprove?: boolean } = {},
): Promise<Rejudgement> {
  const current = policyInForce()?.version;
  // A row changed while it was judged (an edit, a step decided) is judged again, a few times at most.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const row = await getApproval(db, approvalId);
    const asked = row?.policyVersion;
    if (
      row === undefined ||
      asked === undefined ||
      current === undefined ||
      !mayBeRejudged(row, current, now)
    ) {
      return { kind: 'unchanged' };
    }
    const judged = await judgeNow(db, row);
    const before = await getApprovalSteps(db, approvalId);
    let kind: 'denied' | 'approved' | 'replaced';
    try {
      kind = await writeTransaction(db, async (transaction) => {
        const locked = await lockPendingForDecision(transaction, approvalId, now);
        if (locked === undefined) throw new NotRejudged();
        if (locked.version !== row.version + 1) throw new ChangedMeanwhile();
        const moved = await movePolicyVersion(transaction, approvalId, {
          from: asked,
          to: current,
          ruleLabel: judged.rule ?? null,
        });
        if (!moved) throw new NotRejudged();
        if (judged.kind === 'deny') {
          await moveApproval(transaction, approvalId, 'pending', 'denied', { endReason: 'policy_changed' });
          return 'denied' as const;
        }
        const steps = keepAllows(before, judged.steps);
        await replaceSteps(transaction, approvalId, steps, new Date(now).toISOString());
        if (steps.every((step) => step.decision === 'allow')) {
          if (!mayApprove) throw new NotRejudged();
          await moveApproval(transaction, approvalId, 'pending', 'approved');
          return 'approved' as const;
        }
        return 'replaced' as const;
      });
    } catch (error) {
      if (error instanceof NotRejudged) return { kind: 'unchanged' };
      if (error instanceof ChangedMeanwhile) continue;
      throw error;
    }
    const after = (await getApproval(db, approvalId)) ?? row;
    // Holders of the old roles see it change or leave their inbox; the new roles' see it arrive.
    publishApprovalChange(db, row, before);
    publishApprovalChange(db, after);
    if (kind !== 'replaced') {
      approvalNotices().settled(db, approvalId, kind);
      return { kind, row: after };
    }
    const steps = judged.kind === 'steps' ? judged.steps : [];
    const told = { id: approvalId, steps, expiresAt: row.expiresAt, ruleLabel: judged.rule };
    const remindAt = approvalNotices().stepsReplaced(db, told, now);
    if (remindAt !== undefined) keepDueWork(db, remindAt);
    const escalateAt = scheduleEscalation(db, told, now);
    if (escalateAt !== undefined) keepDueWork(db, escalateAt);
    return { kind, row: after };
  }
  return { kind: 'unchanged' };
}

/**
 * What a decision finds once its approval was re-judged: go on as usual (nothing changed,
 * or a step of the new ones is open to this person); the call was settled by the re-judge;
 * or the steps were replaced and none is this person's any more (`policy-changed`).
 */
export type RejudgedDecision =
  | { kind: 'proceed' }
  | { kind: 'settled'; status: 'approved' | 'denied'; row: ApprovalRecord }
  | { kind: 'policy-changed' };

/**
 * Re-judges an approval before a person's decision on it, when they may see it (so nobody
 * else sets a re-judge off or learns of one: their decision answers as for an unknown id).
 * A deny is a deny: from anyone who may deny the call as it was asked (its requester, or
 * the holder of an open step) it is recorded as it stands, with their reason and name,
 * whatever the new policy says; anyone else's deny re-judges it but never settles it approved.
 */
export async function rejudgeBeforeDecision(
  db: Db,
  {
    approvalId,
    chatId,
    approved,
    decider,
  }: { approvalId: string; chatId?: string; approved: boolean; decider: Decider },
  now = Date.now(),
): Promise<RejudgedDecision> {
  const row = await getApproval(db, approvalId);
  if (row === undefined || (chatId !== undefined && row.chatId !== chatId)) return { kind: 'proceed' };
  // The usual case, asked under the policy in force: nothing to re-judge, nothing more to read.
  if (!mayBeRejudged(row, policyInForce()?.version, now)) return { kind: 'proceed' };
  if (!approved && (await mayDecide(db, row, { approved, decider }, now))) return { kind: 'proceed' };
  if (!mayView(row, await getApprovalSteps(db, approvalId), decider)) return { kind: 'proceed' };
  const rejudged = await rejudgeApproval(db, approvalId, now, { mayApprove: approved });
  if (rejudged.kind === 'unchanged') return { kind: 'proceed' };
  if (rejudged.kind !== 'replaced') return { kind: 'settled', status: rejudged.kind, row: rejudged.row };
  return (await mayDecide(db, rejudged.row, { approved, decider }, now))
    ? { kind: 'proceed' }
    : { kind: 'policy-changed' };
}

/**
 * Wakes the call that waits for a settled approval, wherever it waits. True when a live
 * turn took the decision on; false when none did (its process is gone, or it parked): the
 * caller then continues the turn from the database.
 */
export async function wakeSettledCall(db: Db, row: ApprovalRecord, approved: boolean): Promise<boolean> {
  return awaitTakeOver(db, row.id, async () => {
    try {
      // The registry's session is the chat id.
      return await getApprovalRegistry().resolve(row.id, row.chatId, approved, row.ownerId ?? undefined);
    } catch {
      // Redis unreachable: the call cannot be woken; the decision is on the row, so continue here.
      return false;
    }
  });
}
