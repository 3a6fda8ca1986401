import type { CallProvenance } from '@toolgate/engine';
import type { ApprovalPreview } from '@toolgate/engine/stores';
import { type Selectable, sql } from 'kysely';
import { type Db, engineOf } from '@/lib/db/engine';
import type { ApprovalStepTable, ApprovalTable } from '@/lib/db/schema';
import { writeTransaction } from '@/lib/db/write-transaction';
import { type ApprovalStatus, assertTransition, type EndReason } from './approval-states';
import { approvalTiming } from './approval-timing';
import { approverText } from './approver-text';

/*
 * The approval rows. Reads are exported to the app through `lib/approvals`; the writes
 * here (`moveApproval`, `claimDecision`, `fillStep`, …) are used only by this folder's
 * verbs, so every status change goes through the transition table.
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

type ApprovalRow = Selectable<ApprovalTable>;

function toApproval(row: ApprovalRow): ApprovalRecord {
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
function toStep(row: Selectable<ApprovalStepTable>): ApprovalStepRecord {
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

/**
 * An approval as the approvers' list reads it: the fields a list item shows or decides by
 * (its view), not the bookkeeping of running it. `shownInputText` is the JSON text of the
 * input it shows (the edited one, if any), as stored.
 */
export type ListedApprovalRecord = Pick<
  ApprovalRecord,
  | 'id'
  | 'chatId'
  | 'ownerId'
  | 'toolName'
  | 'input'
  | 'editedInput'
  | 'editedBy'
  | 'expiresAt'
  | 'status'
  | 'ruleLabel'
  | 'excerpt'
  | 'preview'
  | 'provenance'
  | 'endReason'
  | 'policyChangedAt'
  | 'createdAt'
> & { shownInputText: string };

/** The columns of a {@link ListedApprovalRecord}, as SQL text (see `waitingRows`). */
const listedColumns =
  'approvals.id, approvals.chat_id, approvals.owner_id, approvals.tool_name, approvals.input, approvals.edited_input, approvals.edited_by, approvals.expires_at, approvals.status, approvals.rule_label, approvals.excerpt, approvals.preview, approvals.provenance, approvals.end_reason, approvals.policy_changed_at, approvals.created_at';

type ListedApprovalRow = Pick<
  ApprovalRow,
  | 'id'
  | 'chat_id'
  | 'owner_id'
  | 'tool_name'
  | 'input'
  | 'edited_input'
  | 'edited_by'
  | 'expires_at'
  | 'status'
  | 'rule_label'
  | 'excerpt'
  | 'preview'
  | 'provenance'
  | 'end_reason'
  | 'policy_changed_at'
  | 'created_at'
>;

/** Optional fields set one by one rather than spread: a page of the list makes 51 of these. */
function toListedApproval(row: ListedApprovalRow): ListedApprovalRecord {
  const listed: ListedApprovalRecord = {
    id: row.id,
    chatId: row.chat_id,
    ownerId: row.owner_id,
    toolName: row.tool_name,
    input: JSON.parse(row.input),
    expiresAt: Number(row.expires_at),
    status: row.status as ApprovalStatus,
    createdAt: row.created_at,
    shownInputText: row.edited_input ?? row.input,
  };
  if (row.edited_input !== null) listed.editedInput = JSON.parse(row.edited_input);
  if (row.edited_by != null) listed.editedBy = row.edited_by;
  if (row.rule_label != null) listed.ruleLabel = row.rule_label;
  if (row.excerpt != null) listed.excerpt = row.excerpt;
  if (row.preview != null) listed.preview = JSON.parse(row.preview) as ApprovalPreview;
  if (row.provenance != null) listed.provenance = JSON.parse(row.provenance) as CallProvenance;
  if (row.end_reason === 'policy_changed') listed.endReason = row.end_reason;
  if (row.policy_changed_at != null) listed.policyChangedAt = row.policy_changed_at;
  return listed;
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

/** How many calls wait for a person now, over all chats and instances (pending, deadline ahead). */
export async function countPendingApprovals(db: Db, now = Date.now()): Promise<number> {
  const row = await db
    .selectFrom('approvals')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
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

/** Where a page of {@link listDecidableApprovals} starts: after this row. */
export type ApprovalCursor = { createdAt: string; id: string };

/**
 * Below this many open role steps of a person's roles (counted on an index, pending or not),
 * their list is read from those steps: at most this many rows are looked at, however many
 * others wait. From this many on, the pending rows are walked oldest first instead, which stops
 * at the page's end (a person with this much to decide finds a page near the start).
 */
const fewOpenRoleSteps = 200;

type DecidableQuery = {
  userId: string;
  roles: readonly string[];
  now: number;
  after?: ApprovalCursor;
  limit: number;
};

/**
 * Pending approvals (deadline ahead) with a step open to this user, oldest first: a
 * role step of a role they hold, on a call they did not ask for, or the requester step
 * of their own call; never one where they already filled a step.
 *
 * How it is read depends on how much waits for their roles: a few (or none) among many
 * pending, and the rows are found from the open steps (`approval_steps_open_role`) and the
 * requester's own calls (`approvals_owner_status_created`); many, and the pending rows are
 * walked in order (`approvals_status_created`) until the page is full.
 */
export async function listDecidableApprovals(db: Db, query: DecidableQuery): Promise<DecidableApproval[]> {
  const many = query.roles.length > 0 && (await countOpenRoleSteps(db, query.roles)) >= fewOpenRoleSteps;
  const rows = many ? await walkPendingApprovals(db, query) : await readFromOpenSteps(db, query);
  // The listed columns come in one piece of SQL text, which Kysely's types do not see.
  return (rows as unknown as ListedQueryRow[]).map(toDecidable);
}

/**
 * A row of {@link listDecidableApprovals}: the approval, its steps in order, and the display
 * names (hidden characters shown, as `userNamesById` gives them) of its requester and of whoever
 * filled a step, by user id (a user that is gone is left out).
 */
export type DecidableApproval = {
  row: ListedApprovalRecord;
  steps: ApprovalStepRecord[];
  names: Map<string, string>;
  /** Someone asked its requester a question (the questions are read apart, for these rows only). */
  asked: boolean;
};

/** A step as the list's own query gives it (`stepsOfRow`): its columns, then its decider's name. */
type ListedStep = [
  position: number,
  kind: string,
  role: string | null,
  decision: string | null,
  decidedBy: string | null,
  decidedAt: string | null,
  escalatedTo: string | null,
  deciderName: string | null,
];

/** A row of the list's own query (`waitingRows`): the listed columns, then what is added to them. */
type ListedQueryRow = ListedApprovalRow & {
  owner_name: string | null;
  steps_json: string | null;
  asked_about: string | null;
};

function toDecidable(listed: ListedQueryRow): DecidableApproval {
  const row = toListedApproval(listed);
  const names = new Map<string, string>();
  if (row.ownerId !== null && listed.owner_name !== null)
    names.set(row.ownerId, approverText(listed.owner_name));
  const listedSteps = JSON.parse(listed.steps_json ?? '[]') as ListedStep[];
  // In order of position (SQLite's array comes in the order its key index gives).
  if (listedSteps.some((step, index) => index > 0 && step[0] < (listedSteps[index - 1] as ListedStep)[0]))
    listedSteps.sort((first, second) => first[0] - second[0]);
  const steps = listedSteps.map(
    ([position, kind, role, decision, decidedBy, decidedAt, escalatedTo, deciderName]) => {
      if (decidedBy !== null && deciderName !== null) names.set(decidedBy, approverText(deciderName));
      return toStep({
        approval_id: row.id,
        position,
        kind,
        role,
        decision,
        decided_by: decidedBy,
        decided_at: decidedAt,
        escalated_to: escalatedTo,
      });
    },
  );
  // Rows written before steps existed have one requester step.
  return {
    row,
    steps: steps.length === 0 ? [{ kind: 'requester' as const, position: 0 }] : steps,
    names,
    asked: listed.asked_about !== null,
  };
}

/**
 * The steps of the row in the list's own query, as one JSON array of {@link ListedStep}s: one
 * query for a page instead of three (the rows, their steps, the names). Postgres writes its
 * JSON as text, so both engines' rows read alike. SQLite's array is not ordered in SQL (an
 * `order by` in the aggregate made a sorter for every row, a fifth of the query): its steps
 * come as the key index (approval, position) gives them, and are put in order when read.
 */
function stepsOfRow(db: Db) {
  return engineOf(db) === 'postgres' ? stepsOfRowOnPostgres : stepsOfRowOnSqlite;
}

const stepFields =
  's.position, s.kind, s.role, s.decision, s.decided_by, s.decided_at, s.escalated_to, (select u.name from "user" as u where u.id = s.decided_by)';
const stepsOfRowOnPostgres = sql<string>`(select coalesce(json_agg(json_build_array(${sql.raw(stepFields)}) order by s.position), '[]')::text from approval_steps as s where s.approval_id = approvals.id)`;
const stepsOfRowOnSqlite = sql<string>`(select json_group_array(json_array(${sql.raw(stepFields)})) from approval_steps as s where s.approval_id = approvals.id)`;

/** How many open role steps ask for one of these roles, counted up to {@link fewOpenRoleSteps} (index only). */
async function countOpenRoleSteps(db: Db, roles: readonly string[]): Promise<number> {
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('approval_steps')
        .select('approval_steps.approval_id')
        .where('approval_steps.kind', '=', 'role')
        .where('approval_steps.role', 'in', roles)
        .where('approval_steps.decision', 'is', null)
        .limit(fewOpenRoleSteps)
        .as('open'),
    )
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** The conditions every listed row meets: pending, deadline ahead, no step of this user's, after the cursor. */
function waitingRows(db: Db, { userId, now, after }: DecidableQuery) {
  return (
    db
      .selectFrom('approvals')
      // Only the columns a list item shows (half of the row: reading the others cost a fifth
      // of the query), then each row's requester's name, its steps and whether it was asked
      // about. All written as SQL text, which Kysely adds as it is: built with its builder,
      // they made building the query dearer than running it on an empty inbox. The columns
      // come with the name, under its alias, in one piece of text.
      .select([
        sql<
          string | null
        >`${sql.raw(listedColumns)}, (select u.name from "user" as u where u.id = approvals.owner_id)`.as(
          'owner_name',
        ),
        stepsOfRow(db).as('steps_json'),
        sql<
          string | null
        >`(select q.approval_id from approval_questions as q where q.approval_id = approvals.id limit 1)`.as(
          'asked_about',
        ),
      ])
      // Unary plus: the deadline never picks the deadline index (the walk below keeps the
      // created order; the other reads start from their own index).
      .where(sql<number>`+approvals.expires_at`, '>', now)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('approval_steps as mine')
              .select('mine.position')
              .whereRef('mine.approval_id', '=', 'approvals.id')
              .where('mine.decided_by', '=', userId),
          ),
        ),
      )
      // A row value, so both engines start the index walk at the cursor instead of filtering up to it.
      .$if(after !== undefined, (query) =>
        query.where(
          sql<boolean>`(approvals.created_at, approvals.id) > (${(after as ApprovalCursor).createdAt}, ${(after as ApprovalCursor).id})`,
        ),
      )
  );
}

/**
 * The rows of a few open role steps of these roles, and the person's own calls waiting for
 * their requester step, oldest first: both found by index from their own side, so a person
 * with nothing waiting reads nothing, however many rows wait for others.
 */
async function readFromOpenSteps(db: Db, query: DecidableQuery) {
  const { userId, roles, limit } = query;
  const own = waitingRows(db, query)
    .where('approvals.owner_id', '=', userId)
    .where('approvals.status', '=', 'pending')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('approval_steps as open')
          .select('open.position')
          .whereRef('open.approval_id', '=', 'approvals.id')
          .where('open.kind', '=', 'requester')
          .where('open.decision', 'is', null)
          // A lookup of this row's steps by their key on Postgres too (see the walk below).
          .limit(1)
          .offset(0),
      ),
    );
  const byRole = waitingRows(db, query)
    .where('approvals.id', 'in', (eb) =>
      eb
        .selectFrom('approval_steps as open')
        .select('open.approval_id')
        .where('open.kind', '=', 'role')
        .where('open.role', 'in', roles)
        .where('open.decision', 'is', null),
    )
    // An expression, so the status never picks the status index (a walk of every pending
    // row): the rows are looked up by id from the open steps. (Not a unary plus: Postgres
    // has none for text.)
    .where(sql<string>`approvals.status || ''`, '=', 'pending')
    .where((eb) => eb.or([eb('approvals.owner_id', 'is', null), eb('approvals.owner_id', '!=', userId)]));
  return (roles.length === 0 ? own : own.unionAll(byRole))
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The pending rows oldest first, each checked for a step open to this person, until the page is full. */
function walkPendingApprovals(db: Db, query: DecidableQuery) {
  const { userId, roles, limit } = query;
  return waitingRows(db, query)
    .where('approvals.status', '=', 'pending')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('approval_steps as open')
          .select('open.position')
          .whereRef('open.approval_id', '=', 'approvals.id')
          .where('open.decision', 'is', null)
          .where((inner) =>
            inner.or([
              inner.and([inner('open.kind', '=', 'requester'), inner('approvals.owner_id', '=', userId)]),
              inner.and([
                inner('open.kind', '=', 'role'),
                inner('open.role', 'in', roles),
                inner.or([
                  inner('approvals.owner_id', 'is', null),
                  inner('approvals.owner_id', '!=', userId),
                ]),
              ]),
            ]),
          )
          // An offset keeps Postgres from turning the check into a join (which, before its
          // statistics know new rows, it may plan as every step against every row): it stays
          // a lookup of this row's steps by their key, row by row, as on SQLite.
          .limit(1)
          .offset(0),
      ),
    )
    .orderBy('approvals.created_at')
    .orderBy('approvals.id')
    .limit(limit)
    .execute();
}

/**
 * The display names of these users, by id (a user that is gone is left out), as others read
 * them: hidden characters shown (`approverText`).
 */
export async function userNamesById(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.selectFrom('user').select(['id', 'name']).where('id', 'in', unique).execute();
  return new Map(rows.map((row) => [row.id, approverText(row.name)]));
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

/** Where a page of {@link listApprovalsDecidedBy} starts: after this step. */
export type DecidedCursor = { decidedAt: string; id: string };

/**
 * The approvals in which this user filled a step, newest decision first, with what they
 * decided and when. Uses the `approval_steps_decided_by` index.
 */
export async function listApprovalsDecidedBy(
  db: Db,
  { userId, after, limit }: { userId: string; after?: DecidedCursor; limit: number },
): Promise<{ row: ApprovalRecord; decision: 'allow' | 'deny'; decidedAt: string }[]> {
  const rows = await db
    .selectFrom('approval_steps as mine')
    .innerJoin('approvals', 'approvals.id', 'mine.approval_id')
    .selectAll('approvals')
    .select(['mine.decision as my_decision', 'mine.decided_at as my_decided_at'])
    .where('mine.decided_by', '=', userId)
    .where('mine.decided_at', 'is not', null)
    .$if(after !== undefined, (query) =>
      query.where(
        sql<boolean>`(mine.decided_at, mine.approval_id) < (${(after as DecidedCursor).decidedAt}, ${(after as DecidedCursor).id})`,
      ),
    )
    .orderBy('mine.decided_at', 'desc')
    .orderBy('mine.approval_id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(({ my_decision, my_decided_at, ...row }) => ({
    row: toApproval(row as ApprovalRow),
    decision: my_decision as 'allow' | 'deny',
    decidedAt: my_decided_at as string,
  }));
}
