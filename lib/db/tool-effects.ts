import { randomUUID } from 'node:crypto';
import type { ExpressionBuilder, Selectable } from 'kysely';
import type { Db } from './engine';
import type { DatabaseSchema } from './schema';
import { writeTransaction } from './write-transaction';

/** Which call an effect record belongs to. */
export type ToolEffectCall = {
  /** Hex SHA-256 of `scope::toolName::stableStringify(input)`. */
  idempotencyKey: string;
  /** The chat id. */
  scope: string;
  toolName: string;
  toolCallId: string;
  /** The validated input the key was derived from. */
  input: unknown;
  /** The user whose turn made the call. */
  userId?: string | null;
};

/** What `commitToolEffect` did: ran the effect, or found a standing record of it. */
export type CommittedEffect<OUTPUT> = { output: OUTPUT; replayed: boolean };

/** Options of {@link commitToolEffect}. */
export type CommitToolEffectOptions = {
  /** How long the record replays, in ms (the idempotency window). */
  ttlMs: number;
  /** How long a record is kept past both windows before it is pruned, in ms. Default one day. */
  retentionMs?: number;
  /** The clock, in epoch ms. Default `Date.now`. */
  now?: () => number;
  /** Every how many commits (of this process) a batch of old records is pruned. Default 16. */
  pruneEvery?: number;
};

// Every `pruneEvery`-th commit of a process also deletes up to `pruneBatch` long-expired
// records: more than it adds, so old rows never pile up, at a small cost per write.
const defaultPruneEvery = 16;
const pruneBatch = 64;
let commitsSincePrune = 0;
const oneDayMs = 86_400_000;

/**
 * Runs `effect` and records its result in ONE transaction, so either both are there or
 * neither is. When a standing (unexpired, not undone) record of the same key exists the
 * effect does not run and the recorded output is returned instead, as the model saw it
 * the first time. Two instances racing on one key: the standing-key unique index lets one
 * commit; the other's transaction rolls back (its effect with it) and it replays the winner.
 * Now and then a batch of long-expired records is pruned in the same transaction.
 */
export async function commitToolEffect<OUTPUT>(
  db: Db,
  call: ToolEffectCall,
  effect: (transaction: Db) => Promise<OUTPUT>,
  { ttlMs, retentionMs = oneDayMs, now = Date.now, pruneEvery = defaultPruneEvery }: CommitToolEffectOptions,
): Promise<CommittedEffect<OUTPUT>> {
  try {
    return await writeTransaction(db, async (transaction) => {
      const current = now();
      const existing = await transaction
        .selectFrom('tool_effects')
        .select(['id', 'result', 'expires_at'])
        .where('idempotency_key', '=', call.idempotencyKey)
        .where((eb) => ownedBy(eb, call.userId))
        .where('undone_at', 'is', null)
        .executeTakeFirst();
      if (existing !== undefined && Number(existing.expires_at) > current) {
        return { output: JSON.parse(existing.result) as OUTPUT, replayed: true };
      }
      // An expired record of this key gives way to the new execution.
      if (existing !== undefined)
        await transaction.deleteFrom('tool_effects').where('id', '=', existing.id).execute();
      const output = await effect(transaction);
      await transaction
        .insertInto('tool_effects')
        .values({
          id: randomUUID(),
          idempotency_key: call.idempotencyKey,
          scope: call.scope,
          user_id: call.userId ?? null,
          tool_name: call.toolName,
          tool_call_id: call.toolCallId,
          input: JSON.stringify(call.input ?? null),
          result: JSON.stringify(output ?? null),
          created_at: current,
          expires_at: current + ttlMs,
          undone_at: null,
        })
        .execute();
      commitsSincePrune += 1;
      if (commitsSincePrune >= pruneEvery) {
        commitsSincePrune = 0;
        await pruneToolEffects(transaction, current - Math.max(ttlMs, retentionMs));
      }
      return { output, replayed: false };
    });
  } catch (error) {
    // Lost a race to another instance: its record stands, and this effect rolled back.
    const standing = await findStandingEffect(db, call, now()).catch(() => undefined);
    if (standing !== undefined) return { output: standing as OUTPUT, replayed: true };
    throw error;
  }
}

/** The recorded output of a standing record of the call's key and user, or undefined. */
async function findStandingEffect(db: Db, call: ToolEffectCall, now: number): Promise<unknown> {
  const row = await db
    .selectFrom('tool_effects')
    .select('result')
    .where('idempotency_key', '=', call.idempotencyKey)
    .where((eb) => ownedBy(eb, call.userId))
    .where('undone_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row === undefined ? undefined : JSON.parse(row.result);
}

/**
 * Records are per user as well as per chat: a chat id the client picked again after a
 * deletion, by someone else, must never replay another user's result.
 */
function ownedBy(eb: ExpressionBuilder<DatabaseSchema, 'tool_effects'>, userId: string | null | undefined) {
  return userId == null ? eb('user_id', 'is', null) : eb('user_id', '=', userId);
}

/** Deletes every record of one chat (the chat was deleted: nothing of it may replay). */
export async function deleteToolEffectsOfScope(db: Db, scope: string): Promise<void> {
  await db.deleteFrom('tool_effects').where('scope', '=', scope).execute();
}

/** Deletes up to a batch of records that expired before `before` (epoch ms). */
async function pruneToolEffects(db: Db, before: number): Promise<void> {
  await db
    .deleteFrom('tool_effects')
    .where(
      'id',
      'in',
      db.selectFrom('tool_effects').select('id').where('expires_at', '<', before).limit(pruneBatch),
    )
    .execute();
}

/** An effect record as the undo path reads it. */
export type ToolEffectRecord = {
  id: string;
  idempotencyKey: string;
  scope: string;
  userId: string | null;
  toolName: string;
  toolCallId: string;
  input: unknown;
  output: unknown;
  createdAt: number;
  undoneAt: number | null;
};

/** The record of the call `toolCallId` in chat `scope` of `userId`; undefined for anyone else's. */
export async function findToolEffect(
  db: Db,
  { scope, toolCallId, userId }: { scope: string; toolCallId: string; userId: string },
): Promise<ToolEffectRecord | undefined> {
  const row = await db
    .selectFrom('tool_effects')
    .selectAll()
    .where('scope', '=', scope)
    .where('tool_call_id', '=', toolCallId)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return row === undefined ? undefined : toRecord(row);
}

function toRecord(row: Selectable<DatabaseSchema['tool_effects']>): ToolEffectRecord {
  return {
    id: row.id,
    idempotencyKey: row.idempotency_key,
    scope: row.scope,
    userId: row.user_id,
    toolName: row.tool_name,
    toolCallId: row.tool_call_id,
    input: JSON.parse(row.input),
    output: JSON.parse(row.result),
    createdAt: Number(row.created_at),
    undoneAt: row.undone_at === null ? null : Number(row.undone_at),
  };
}

/** The undone records among `toolCallIds` of `scope` (a chat), for keeping their saved parts marked. */
export async function findUndoneToolEffects(
  db: Db,
  { scope, toolCallIds }: { scope: string; toolCallIds: readonly string[] },
): Promise<ToolEffectRecord[]> {
  if (toolCallIds.length === 0) return [];
  const rows = await db
    .selectFrom('tool_effects')
    .selectAll()
    .where('scope', '=', scope)
    .where('tool_call_id', 'in', [...toolCallIds])
    .where('undone_at', 'is not', null)
    .execute();
  return rows.map(toRecord);
}

/**
 * Marks the record undone and runs `undo` in the same transaction, only if nobody did
 * first (compare-and-set on `undone_at`) and only before `deadline` (epoch ms). Returns
 * whether this caller won; a failing `undo` rolls the mark back.
 */
export async function markToolEffectUndone(
  db: Db,
  { id, now, deadline }: { id: string; now: number; deadline: number },
  undo: (transaction: Db) => Promise<void>,
): Promise<boolean> {
  if (now >= deadline) return false;
  return writeTransaction(db, async (transaction) => {
    const result = await transaction
      .updateTable('tool_effects')
      .set({ undone_at: now })
      .where('id', '=', id)
      .where('undone_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await undo(transaction);
    return true;
  });
}
