import type { CallProvenance } from '@toolgate/engine';
import { revealHiddenCharacters } from '@toolgate/engine/client';
import type { ApprovalPreview } from '@toolgate/engine/stores';
import type { Selectable } from 'kysely';
import type { Db } from '@/lib/db/engine';
import type { ApprovalStepTable, ApprovalTable } from '@/lib/db/schema';
import { writeTransaction } from '@/lib/db/write-transaction';
import { type ApprovalStatus, assertTransition, type EndReason } from './approval-states';
import { approvalTiming } from './approval-timing';

/*
 * The approval rows. Reads are exported to the app through `lib/approvals`; the writes
 * here (`moveApproval`, `claimDecision`, `fillStep`, …) are used only by this folder's
 * verbs, so every status change goes through the transition table. The inbox's list
 * queries are in `../surfaces/approval-lists.ts`.
 */

/** Who must allow a call: the chat's user, or anyone who holds a role (never the requester). */
export type ApprovalStepSpec = { kind: 'requester' } | { kind: 'role'; role: string };

/** One step with what was decided on it. */
export type ApprovalStepRecord = ApprovalStepSpec & {
  position: number;
  decision?: 'allow' | 'deny';
  /** The user id of the person who filled it. */
  decidedBy?: string;
  decidedAt?: string;
  /** The role an escalation handed this step to (then also its `role`). */
  escalatedTo?: string;
};

/** One approval as the server reads it. */
export type ApprovalRecord = {
  id: string;
  chatId: string;
  ownerId: string | null;
  messageId: string;
  toolCallId: string;
  toolName: string;
  worker: string;
  input: unknown;
  expiresAt: number;
  status: ApprovalStatus;
  /** A turn (the live one or a continuation) has taken the decision on. */
  claimed: boolean;
  /** The input the person approved instead of the model's (validated), if they edited it. */
  editedInput?: unknown;
  /** The user id of whoever edited the input, when someone did. */
  editedBy?: string;
  /** What the person said with a "no". */
  note?: string;
  /** How many times the deadline was extended. */
  extensions: number;
  /** The `traceparent` of the tool call that asked, when it was traced. */
  traceParent?: string;
  /** Bumped by every step decided: the compare-and-set token. */
  version: number;
  /** The policy rule that asked for this approval, when one did. */
  ruleLabel?: string;
  /** The user message that led to the call, truncated. */
  excerpt?: string;
  /** What the card shows before the decision: the tool's preview of the input the call would run with. */
  preview?: ApprovalPreview;
  /** Where the call's values came from, when it was traced (a write with provenance on). */
  provenance?: CallProvenance;
  /** The version of the policy the call was asked under, or last re-judged under; absent without a policy. */
  policyVersion?: string;
  /** Why a denied call ended, when its status alone does not say (see `denialReasonOf`). */
  endReason?: EndReason;
  /** When a re-judge under a newer policy replaced the steps (ISO 8601). */
  policyChangedAt?: string;
  /** When the card was first shown (ISO 8601). */
  createdAt: string;
  updatedAt: string;
};

/** An approval row as the database gives it. */
export type ApprovalRow = Selectable<ApprovalTable>;

export function toApproval(row: ApprovalRow): ApprovalRecord {
  return {
    id: row.id,
    chatId: row.chat_id,
    ownerId: row.owner_id,
    messageId: row.message_id,
    toolCallId: row.tool_call_id,
    toolName: row.tool_name,
    worker: row.worker,
    input: JSON.parse(row.input),
    expiresAt: Number(row.expires_at),
    status: row.status as ApprovalStatus,
    claimed: Number(row.claimed) === 1,
    ...(row.edited_input !== null && { editedInput: JSON.parse(row.edited_input) }),
    ...(row.edited_by != null && { editedBy: row.edited_by }),
    ...(row.note !== null && { note: row.note }),
    extensions: Number(row.extensions),
    ...(row.trace_parent !== null && { traceParent: row.trace_parent }),
    version: Number(row.version ?? 0),
    ...(row.rule_label != null && { ruleLabel: row.rule_label }),
    ...(row.excerpt != null && { excerpt: row.excerpt }),
    ...(row.preview != null && { preview: JSON.parse(row.preview) as ApprovalPreview }),
    ...(row.provenance != null && { provenance: JSON.parse(row.provenance) as CallProvenance }),
    ...(row.policy_version != null && { policyVersion: row.policy_version }),
    ...(row.end_reason === 'policy_changed' && { endReason: row.end_reason }),
    ...(row.policy_changed_at != null && { policyChangedAt: row.policy_changed_at }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Fields set one by one rather than spread: a page of a list makes 50 of these. */
export function toStep(row: Selectable<ApprovalStepTable>): ApprovalStepRecord {
  const step: ApprovalStepRecord =
    row.kind === 'role' && row.role !== null
      ? { kind: 'role', role: row.role, position: Number(row.position) }
      : { kind: 'requester', position: Number(row.position) };
  if (row.decision !== null) step.decision = row.decision as 'allow' | 'deny';
  if (row.decided_by !== null) step.decidedBy = row.decided_by;
  if (row.decided_at !== null) step.decidedAt = row.decided_at;
  if (row.escalated_to != null) step.escalatedTo = row.escalated_to;
  return step;
}

/** What a new approval row holds. */
export type NewApproval = Pick<
  ApprovalRecord,
  'id' | 'chatId' | 'ownerId' | 'messageId' | 'toolCallId' | 'toolName' | 'worker' | 'input' | 'expiresAt'
> &
  Pick<
    Partial<ApprovalRecord>,
    'traceParent' | 'ruleLabel' | 'excerpt' | 'preview' | 'provenance' | 'policyVersion'
  > & {
    /** Default: one requester step (the chat's user decides, as without a policy). */
    steps?: readonly ApprovalStepSpec[];
  };

/** Inserts a `pending` row and its steps in one transaction. */
export async function insertApprovalRow(db: Db, approval: NewApproval): Promise<void> {
  const now = new Date().toISOString();
  const steps = approval.steps?.length ? approval.steps : [{ kind: 'requester' as const }];
  await writeTransaction(db, async (transaction) => {
    await transaction
      .insertInto('approvals')
      .values({
        id: approval.id,
        chat_id: approval.chatId,
        owner_id: approval.ownerId,
        message_id: approval.messageId,
        tool_call_id: approval.toolCallId,
        tool_name: approval.toolName,
        worker: approval.worker,
        input: JSON.stringify(approval.input ?? null),
        expires_at: approval.expiresAt,
        status: 'pending',
        claimed: 0,
        trace_parent: approval.traceParent ?? null,
        rule_label: approval.ruleLabel ?? null,
        excerpt: approval.excerpt ?? null,
        preview: approval.preview === undefined ? null : JSON.stringify(approval.preview),
        provenance: approval.provenance === undefined ? null : JSON.stringify(approval.provenance),
        policy_version: approval.policyVersion ?? null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await transaction
      .insertInto('approval_steps')
      .values(
        steps.map((step, position) => ({
          approval_id: approval.id,
          position,
          kind: step.kind,
          role: step.kind === 'role' ? step.role : null,
          decision: null,
          decided_by: null,
          decided_at: null,
        })),
      )
      .execute();
  });
}

/** The approval with this id, or undefined. */
export async function getApproval(db: Db, id: string): Promise<ApprovalRecord | undefined> {
  const row = await db.selectFrom('approvals').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : toApproval(row);
}

/** The steps of an approval in order (one requester step for rows written before steps existed). */
export async function getApprovalSteps(db: Db, id: string): Promise<ApprovalStepRecord[]> {
  const rows = await db
    .selectFrom('approval_steps')
    .selectAll()
    .where('approval_id', '=', id)
    .orderBy('position')
    .execute();
  return rows.length === 0 ? [{ kind: 'requester', position: 0 }] : rows.map(toStep);
}

/** The steps of several approvals at once, by approval id, each in order (one query for a page of a list). */
export async function getStepsOfApprovals(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, ApprovalStepRecord[]>> {
  const stepsById = new Map<string, ApprovalStepRecord[]>();
  if (ids.length === 0) return stepsById;
  const rows = await db
    .selectFrom('approval_steps')
    .selectAll()
    .where('approval_id', 'in', [...new Set(ids)])
    .orderBy('approval_id')
    .orderBy('position')
    .execute();
  for (const row of rows) {
    const steps = stepsById.get(row.approval_id) ?? [];
    steps.push(toStep(row));
    stepsById.set(row.approval_id, steps);
  }
  // Rows written before steps existed have one requester step.
  for (const id of ids) if (!stepsById.has(id)) stepsById.set(id, [{ kind: 'requester', position: 0 }]);
  return stepsById;
}

/**
 * Who made the decision that settled a call: the step that denied it (or its requester, who
 * may always say no), else the last role step that allowed it, else its requester's allow.
 * Undefined for a call nobody decided (the deadline, Stop, a new message…).
 */
function decidingStep(
  row: ApprovalRecord,
  steps: readonly ApprovalStepRecord[],
): { userId: string; role: string } | undefined {
  const denied = steps.find((step) => step.decision === 'deny' && step.decidedBy !== undefined);
  if (denied?.decidedBy !== undefined)
    return { userId: denied.decidedBy, role: denied.kind === 'role' ? denied.role : 'requester' };
  if (row.status === 'denied')
    return row.ownerId === null || row.endReason !== undefined
      ? undefined
      : { userId: row.ownerId, role: 'requester' };
  if (row.status !== 'approved' && row.status !== 'executing' && row.status !== 'executed') return undefined;
  const allows = steps
    .filter((step) => step.decision === 'allow' && step.decidedBy !== undefined)
    .sort((first, second) => (first.decidedAt ?? '').localeCompare(second.decidedAt ?? ''));
  const roleAllow = allows.filter((step) => step.kind === 'role').at(-1) ?? allows.at(-1);
  if (roleAllow?.decidedBy === undefined) return undefined;
  return { userId: roleAllow.decidedBy, role: roleAllow.kind === 'role' ? roleAllow.role : 'requester' };
}

/**
 * Who decided a call (user ids; when someone other than its requester settled or edited it,
 * who, by name and role), which rule asked and how long it waited: what the audit row keeps and the
 * model reads.
 */
export async function decisionRecordOf(
  db: Db,
  row: ApprovalRecord,
  now = Date.now(),
): Promise<{
  deciders?: string[];
  decidedBy?: { name: string; role: string };
  editedBy?: { name: string; role: string };
  rule?: string;
  waitMs: number;
}> {
  const steps = await getApprovalSteps(db, row.id);
  const deciders = steps.flatMap((step) => (step.decidedBy === undefined ? [] : [step.decidedBy]));
  const deciding = decidingStep(row, steps);
  const editorStep =
    row.editedBy === undefined ? undefined : steps.find((step) => step.decidedBy === row.editedBy);
  const editor =
    row.editedBy === undefined
      ? undefined
      : {
          userId: row.editedBy,
          role:
            editorStep?.kind === 'role'
              ? editorStep.role
              : row.editedBy === row.ownerId
                ? 'requester'
                : ((steps.find((step) => step.kind === 'role') as { role?: string } | undefined)?.role ??
                  'requester'),
        };
  // Only someone other than the requester is named (the model must not say "you" for them); a
  // decision of the requester's own needs no read.
  const others = [deciding, editor].filter(
    (who): who is { userId: string; role: string } => who !== undefined && who.role !== 'requester',
  );
  const names =
    others.length === 0
      ? new Map<string, string>()
      : await userNamesById(
          db,
          others.map((who) => who.userId),
        );
  const maker = (who: { userId: string; role: string } | undefined) =>
    who === undefined || who.role === 'requester'
      ? undefined
      : { name: names.get(who.userId) ?? '', role: who.role };
  const decidedBy = maker(deciding);
  const editedBy = maker(editor);
  return {
    ...(deciders.length > 0 && { deciders }),
    ...(decidedBy !== undefined && { decidedBy }),
    ...(editedBy !== undefined && { editedBy }),
    ...(row.ruleLabel !== undefined && { rule: row.ruleLabel }),
    waitMs: Math.max(0, now - Date.parse(row.createdAt)),
  };
}

/** The earliest deadline of any pending approval, or undefined when none waits. */
export async function earliestPendingDeadline(db: Db): Promise<number | undefined> {
  const row = await db
    .selectFrom('approvals')
    .select((eb) => eb.fn.min('expires_at').as('next'))
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return row?.next == null ? undefined : Number(row.next);
}

/** Pending approvals whose deadline is at or before `now`, oldest deadline first (at most `limit`). */
export async function listDueApprovals(db: Db, now: number, limit = 100): Promise<ApprovalRecord[]> {
  const rows = await db
    .selectFrom('approvals')
    .selectAll()
    .where('status', '=', 'pending')
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
  return rows.map(toApproval);
}

/** A chat's approvals in the given states, oldest first. */
export async function listChatApprovals(
  db: Db,
  chatId: string,
  statuses: readonly ApprovalStatus[],
): Promise<ApprovalRecord[]> {
  if (statuses.length === 0) return [];
  const rows = await db
    .selectFrom('approvals')
    .selectAll()
    .where('chat_id', '=', chatId)
    .where('status', 'in', statuses)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toApproval);
}

/** One requester's pending approvals with a role step (someone else must decide), oldest first. */
export async function listPendingRoleApprovalsOf(db: Db, ownerId: string): Promise<ApprovalRecord[]> {
  const rows = await db
    .selectFrom('approvals')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('status', '=', 'pending')
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('approval_steps')
          .select('approval_steps.approval_id')
          .whereRef('approval_steps.approval_id', '=', 'approvals.id')
          .where('approval_steps.kind', '=', 'role'),
      ),
    )
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toApproval);
}

/**
 * The display names of these users, by id (a user that is gone is left out), as others read
 * them: hidden characters shown as their code points, as on every approver surface.
 */
export async function userNamesById(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.selectFrom('user').select(['id', 'name']).where('id', 'in', unique).execute();
  return new Map(rows.map((row) => [row.id, revealHiddenCharacters(row.name)]));
}

/** Conditions a move also checks on the row, in the same statement. */
export type MoveGuard = {
  /** Only a call of this chat. */
  chatId?: string;
  /** Only a call this owner may decide (a row without an owner accepts anyone). */
  ownerId?: string | null;
  /** Only while the deadline has not passed at this instant (epoch ms). */
  before?: number;
  /** Only while nothing else has decided a step since this version was read. */
  version?: number;
  /** Also take the decision on (claimed = 1), in the same step. */
  claim?: boolean;
  /** Recorded with the move: the input the person approved instead (and who edited it), or their note with a "no". */
  decision?: { editedInput?: unknown; editedBy?: string; note?: string };
  /** Recorded with a move to `denied` that its status alone does not explain. */
  endReason?: EndReason;
};

/**
 * Moves one approval from `from` to `to` if, and only if, it is still in `from`
 * (and the guard holds). Returns whether this call made the move. The one place a
 * status is written (with {@link moveApprovalReturning}); a move not in the transition table throws.
 */
export async function moveApproval(
  db: Db,
  id: string,
  from: ApprovalStatus,
  to: ApprovalStatus,
  guard: MoveGuard = {},
): Promise<boolean> {
  const result = await moveStatement(db, id, from, to, guard).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * {@link moveApproval} in one statement with the row it moved (as it is after the move), or
 * undefined when it did not: no read before or after.
 */
export async function moveApprovalReturning(
  db: Db,
  id: string,
  from: ApprovalStatus,
  to: ApprovalStatus,
  guard: MoveGuard = {},
): Promise<ApprovalRecord | undefined> {
  const row = await moveStatement(db, id, from, to, guard).returningAll().executeTakeFirst();
  return row === undefined ? undefined : toApproval(row);
}

function moveStatement(
  db: Db,
  id: string,
  from: ApprovalStatus,
  to: ApprovalStatus,
  { chatId, ownerId, before, version, claim = false, decision, endReason }: MoveGuard,
) {
  assertTransition(from, to);
  return db
    .updateTable('approvals')
    .set({
      status: to,
      updated_at: new Date().toISOString(),
      ...(claim && { claimed: 1 }),
      ...(decision?.editedInput !== undefined && { edited_input: JSON.stringify(decision.editedInput) }),
      ...(decision?.editedBy !== undefined && { edited_by: decision.editedBy }),
      ...(decision?.note !== undefined && { note: decision.note }),
      ...(endReason !== undefined && { end_reason: endReason }),
    })
    .where('id', '=', id)
    .where('status', '=', from)
    .$if(chatId !== undefined, (query) => query.where('chat_id', '=', chatId as string))
    .$if(ownerId !== undefined, (query) =>
      query.where((eb) =>
        ownerId === null
          ? eb('owner_id', 'is', null)
          : eb.or([eb('owner_id', 'is', null), eb('owner_id', '=', ownerId as string)]),
      ),
    )
    .$if(before !== undefined, (query) => query.where('expires_at', '>', before as number))
    .$if(version !== undefined, (query) => query.where('version', '=', version as number))
    .$if(claim, (query) => query.where('claimed', '=', 0));
}

/**
 * Takes the decision on a decided approval (claimed 0 → 1): whoever wins continues
 * the turn — the live turn that asked, or a continuation after it is gone.
 */
export async function claimDecision(db: Db, id: string, status: ApprovalStatus): Promise<boolean> {
  const result = await db
    .updateTable('approvals')
    .set({ claimed: 1, updated_at: new Date().toISOString() })
    .where('id', '=', id)
    .where('status', '=', status)
    .where('claimed', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Locks a pending approval for one step decision: bumps its version if it is still
 * pending and before its deadline. On Postgres the UPDATE holds the row lock until the
 * transaction ends, so two instances deciding two steps at once take turns, and the
 * second reads the first's step. Returns the row as locked (its new version), or undefined.
 */
export async function lockPendingForDecision(
  transaction: Db,
  id: string,
  now: number,
): Promise<ApprovalRecord | undefined> {
  // One statement: the row comes back with the update (no second read of it under the lock).
  const row = await transaction
    .updateTable('approvals')
    .set((eb) => ({ version: eb('version', '+', 1), updated_at: new Date().toISOString() }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
  return row === undefined ? undefined : toApproval(row);
}

/** Records a decision on one open step (inside the transaction that locked the row). */
export async function fillStep(
  transaction: Db,
  id: string,
  position: number,
  { decision, userId }: { decision: 'allow' | 'deny'; userId: string },
): Promise<boolean> {
  const result = await transaction
    .updateTable('approval_steps')
    .set({ decision, decided_by: userId, decided_at: new Date().toISOString() })
    .where('approval_id', '=', id)
    .where('position', '=', position)
    .where('decision', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Moves a locked pending approval from the policy version it was judged under to `to`, if
 * it is still under `from` (compare-and-set: of several instances re-judging it, one
 * does). `ruleLabel` is the rule of the new judgement (null: none matched). Returns whether
 * this call made the move.
 */
export async function movePolicyVersion(
  transaction: Db,
  id: string,
  { from, to, ruleLabel }: { from: string; to: string; ruleLabel: string | null },
): Promise<boolean> {
  const result = await transaction
    .updateTable('approvals')
    .set({ policy_version: to, rule_label: ruleLabel, updated_at: new Date().toISOString() })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('policy_version', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Replaces the steps of a locked pending approval (a re-judge under a newer policy): each
 * step keeps what was decided on it when given (`decision`, `decidedBy`, `decidedAt`), the
 * rest start open; the row is marked with when it happened and its escalation, which was
 * the old rule's, is dropped.
 */
export async function replaceSteps(
  transaction: Db,
  id: string,
  steps: readonly (ApprovalStepSpec & Pick<ApprovalStepRecord, 'decision' | 'decidedBy' | 'decidedAt'>)[],
  changedAt: string,
): Promise<void> {
  await transaction.deleteFrom('approval_steps').where('approval_id', '=', id).execute();
  await transaction
    .insertInto('approval_steps')
    .values(
      steps.map((step, position) => ({
        approval_id: id,
        position,
        kind: step.kind,
        role: step.kind === 'role' ? step.role : null,
        decision: step.decision ?? null,
        decided_by: step.decidedBy ?? null,
        decided_at: step.decidedAt ?? null,
      })),
    )
    .execute();
  await transaction
    .updateTable('approvals')
    .set({ policy_changed_at: changedAt, escalate_at: null, escalation: null })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/** Re-opens the steps allowed so far (their allows were given to an input now replaced). */
export async function reopenAllowedSteps(transaction: Db, id: string): Promise<void> {
  await transaction
    .updateTable('approval_steps')
    .set({ decision: null, decided_by: null, decided_at: null })
    .where('approval_id', '=', id)
    .where('decision', '=', 'allow')
    .execute();
}

/** Stores an edited input on a pending row (several steps: the call stays pending). */
export async function setEditedInput(
  transaction: Db,
  id: string,
  editedInput: unknown,
  preview?: ApprovalPreview,
  editedBy?: string,
): Promise<void> {
  await transaction
    .updateTable('approvals')
    // The preview follows the input: the one of the model's input no longer applies.
    .set({
      edited_input: JSON.stringify(editedInput),
      edited_by: editedBy ?? null,
      preview: preview === undefined ? null : JSON.stringify(preview),
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/**
 * Pushes a pending approval's deadline back by `byMs`, if it is still pending, not yet
 * past its deadline at `now`, of this chat and owner, and extended fewer than
 * `approvalTiming.maxExtensions` times — all in one compare-and-set. Returns the new
 * deadline, or undefined when the row did not match.
 */
export async function pushDeadline(
  db: Db,
  id: string,
  { chatId, ownerId, now, byMs }: { chatId: string; ownerId: string | null; now: number; byMs: number },
): Promise<number | undefined> {
  const result = await db
    .updateTable('approvals')
    .set((eb) => ({
      expires_at: eb('expires_at', '+', byMs),
      extensions: eb('extensions', '+', 1),
      updated_at: new Date().toISOString(),
    }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('chat_id', '=', chatId)
    .where((eb) =>
      ownerId === null
        ? eb('owner_id', 'is', null)
        : eb.or([eb('owner_id', 'is', null), eb('owner_id', '=', ownerId)]),
    )
    .where('expires_at', '>', now)
    .where('extensions', '<', approvalTiming.maxExtensions)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  return (await getApproval(db, id))?.expiresAt;
}
