import type { CallProvenance } from '@toolgate/engine';
import type { ApprovalPreview } from '@toolgate/engine/stores';
import { sql } from 'kysely';
import { type Db, engineOf } from '@/lib/db/engine';
import {
  type ApprovalRecord,
  type ApprovalRow,
  type ApprovalStepRecord,
  toApproval,
  toStep,
} from '../life-cycle/approval-rows';
import type { ApprovalStatus } from '../life-cycle/approval-states';
import { approverText } from '../notices/approver-text';

/*
 * The lists people read approvals in: the inbox's calls to decide and decided, a page at a
 * time, and how many wait (the metrics). Reads only; the life cycle's rows and writes are in
 * `../life-cycle/approval-rows.ts`.
 */

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
