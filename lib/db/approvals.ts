import type { Selectable } from 'kysely';
import type { Db } from './engine';
import type { ApprovalTable } from './schema';

/**
 * The life cycle of a tool call that waits for a person. Every change is a
 * compare-and-set on the row (`UPDATE … WHERE status = from`), so when two
 * instances, two tabs or a decision and a deadline race, exactly one wins and
 * the others see that they lost.
 *
 * pending ─┬─ approved ── executing ─┬─ executed
 *          ├─ denied                  └─ failed
 *          ├─ expired     (the deadline passed)
 *          ├─ stopped     (the user pressed Stop)
 *          ├─ superseded  (the user sent a new message instead)
 *          └─ closed      (the chat was deleted)
 */
export type ApprovalStatus =
  | 'pending'
  | 'approved'
  | 'denied'
  | 'expired'
  | 'stopped'
  | 'superseded'
  | 'closed'
  | 'executing'
  | 'executed'
  | 'failed';

/** The only moves the life cycle allows; `transitionApproval` refuses any other. */
export const approvalTransitions: Readonly<Record<ApprovalStatus, readonly ApprovalStatus[]>> = {
  pending: ['approved', 'denied', 'expired', 'stopped', 'superseded', 'closed'],
  approved: ['executing'],
  executing: ['executed', 'failed'],
  denied: [],
  expired: [],
  stopped: [],
  superseded: [],
  closed: [],
  executed: [],
  failed: [],
};

/** Ends of a pending approval that are not an allow: the call returns a denial. */
export type DeniedStatus = 'denied' | 'expired' | 'stopped' | 'superseded' | 'closed';

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
  /** What the person said with a "no". */
  note?: string;
  /** How many times the deadline was extended. */
  extensions: number;
  /** The `traceparent` of the tool call that asked, when it was traced. */
  traceParent?: string;
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
    ...(row.note !== null && { note: row.note }),
    extensions: Number(row.extensions),
    ...(row.trace_parent !== null && { traceParent: row.trace_parent }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Records a call that starts waiting for a person (status `pending`). */
export async function createApproval(
  db: Db,
  approval: Pick<
    ApprovalRecord,
    'id' | 'chatId' | 'ownerId' | 'messageId' | 'toolCallId' | 'toolName' | 'worker' | 'input' | 'expiresAt'
  > &
    Pick<Partial<ApprovalRecord>, 'traceParent'>,
): Promise<void> {
  const now = new Date().toISOString();
  await db
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
      created_at: now,
      updated_at: now,
    })
    .execute();
}

/** The approval with this id, or undefined. */
export async function getApproval(db: Db, id: string): Promise<ApprovalRecord | undefined> {
  const row = await db.selectFrom('approvals').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : toApproval(row);
}

/** Every pending approval's id and deadline, over all chats (a server's start-up looks). */
export async function listPendingDeadlines(db: Db): Promise<{ id: string; expiresAt: number }[]> {
  const rows = await db
    .selectFrom('approvals')
    .select(['id', 'expires_at'])
    .where('status', '=', 'pending')
    .execute();
  return rows.map((row) => ({ id: row.id, expiresAt: Number(row.expires_at) }));
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

/** Conditions a transition also checks on the row, in the same statement. */
export type TransitionGuard = {
  /** Only a call of this chat. */
  chatId?: string;
  /** Only a call this owner may decide (a row without an owner accepts anyone). */
  ownerId?: string | null;
  /** Only while the deadline has not passed at this instant (epoch ms). */
  before?: number;
  /** Also take the decision on (claimed = 1), in the same step. */
  claim?: boolean;
  /** Recorded with the move: the input the person approved instead, or their note with a "no". */
  decision?: { editedInput?: unknown; note?: string };
};

/**
 * Moves one approval from `from` to `to` if, and only if, it is still in `from`
 * (and the guard holds). Returns whether this call made the move: false means
 * someone else got there first, or the row never matched.
 */
export async function transitionApproval(
  db: Db,
  id: string,
  from: ApprovalStatus,
  to: ApprovalStatus,
  { chatId, ownerId, before, claim = false, decision }: TransitionGuard = {},
): Promise<boolean> {
  if (!approvalTransitions[from].includes(to)) {
    throw new Error(`An approval cannot go from ${from} to ${to}`);
  }
  const result = await db
    .updateTable('approvals')
    .set({
      status: to,
      updated_at: new Date().toISOString(),
      ...(claim && { claimed: 1 }),
      ...(decision?.editedInput !== undefined && { edited_input: JSON.stringify(decision.editedInput) }),
      ...(decision?.note !== undefined && { note: decision.note }),
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
    .$if(claim, (query) => query.where('claimed', '=', 0))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Takes the decision on a decided approval (claimed 0 → 1): whoever wins continues
 * the turn — the live turn that asked, or a continuation after it is gone.
 */
export async function claimApproval(db: Db, id: string, status: ApprovalStatus): Promise<boolean> {
  const result = await db
    .updateTable('approvals')
    .set({ claimed: 1, updated_at: new Date().toISOString() })
    .where('id', '=', id)
    .where('status', '=', status)
    .where('claimed', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** How many times one approval's deadline may be pushed back. */
export const maxApprovalExtensions = 3;

/**
 * Pushes a pending approval's deadline back by `byMs`, if it is still pending, not yet
 * past its deadline at `now`, of this chat and owner, and extended fewer than
 * {@link maxApprovalExtensions} times — all in one compare-and-set. Returns the new
 * deadline, or undefined when the row did not match.
 */
export async function extendApproval(
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
    .where('extensions', '<', maxApprovalExtensions)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  return (await getApproval(db, id))?.expiresAt;
}
