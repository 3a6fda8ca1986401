import type { AuditDetail, AuditOutcome, AuditSummary, NewAuditRow } from '@toolgate/engine';
import { type Selectable, sql } from 'kysely';
import { type AuditExportRow, type ChainedAuditFields, chainHash, genesisHash } from './audit-chain';
import { type Db, engineOf } from './engine';
import type { ToolAuditTable } from './schema';
import { writeTransaction } from './write-transaction';

// The audit record's shape and outcomes are the engine's (its audit shell reports them); the database stores them.
export { type AuditOutcome, auditOutcomes, type NewAuditRow } from '@toolgate/engine';

/** A stored audit row; `summary` is null for tools without one and rows written before summaries were kept. */
export type AuditRow = Omit<NewAuditRow, 'summary'> & { id: number; summary: AuditSummary | null };

/** An audit row as the table stores it. */
type AuditRecord = Selectable<ToolAuditTable>;

function toAuditRow(record: AuditRecord): AuditRow {
  return {
    id: record.id,
    userId: record.user_id,
    chatId: record.chat_id,
    worker: record.worker,
    toolName: record.tool_name,
    toolCallId: record.tool_call_id,
    argsHash: record.args_hash,
    outcome: record.outcome as AuditOutcome,
    durationMs: record.duration_ms,
    createdAt: record.created_at,
    ...(record.detail !== null && { detail: JSON.parse(record.detail) as AuditDetail }),
    summary: record.summary === null ? null : (JSON.parse(record.summary) as AuditSummary),
  };
}

// Any constant works; it only has to be the same in every instance of this app.
const auditChainLockKey = 0x61756474; // "audt"

/** The chained fields of a stored row (`seq` and `chained_at` given for a row about to be written). */
export function chainedFieldsOfRecord(
  record: Omit<AuditRecord, 'id' | 'prev_hash' | 'hash'> & { seq: number; chained_at: string },
): ChainedAuditFields {
  return {
    seq: record.seq,
    chainedAt: record.chained_at,
    userId: record.user_id,
    chatId: record.chat_id,
    worker: record.worker,
    toolName: record.tool_name,
    toolCallId: record.tool_call_id,
    argsHash: record.args_hash,
    outcome: record.outcome,
    durationMs: record.duration_ms,
    createdAt: record.created_at,
    detail: record.detail === null ? null : (JSON.parse(record.detail) as AuditDetail),
    summary: record.summary === null ? null : (JSON.parse(record.summary) as AuditSummary),
  };
}

/** The later of two ISO 8601 times (both UTC, so they compare as strings). */
const laterOf = (time: string, other: string | null | undefined) =>
  other !== null && other !== undefined && other > time ? other : time;

/** The last row of the chain (its place, time and hash), or undefined while the chain is empty. */
function chainHead(db: Db) {
  return db
    .selectFrom('tool_audit')
    .select(['seq', 'chained_at', 'hash'])
    .where('seq', 'is not', null)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Appends one row to the audit log and to its hash chain. The chain's head is read and
 * the row written in one transaction under a lock every instance takes (Postgres's
 * advisory lock, SQLite's write lock), so two writers never both extend the same head;
 * the unique `seq` backs that up.
 */
export async function insertAuditRow(db: Db, row: NewAuditRow): Promise<AuditRow> {
  const values = {
    user_id: row.userId ?? null,
    chat_id: row.chatId,
    worker: row.worker,
    tool_name: row.toolName,
    tool_call_id: row.toolCallId,
    args_hash: row.argsHash,
    outcome: row.outcome,
    duration_ms: Math.max(0, Math.round(row.durationMs)),
    created_at: row.createdAt,
    detail: row.detail === undefined ? null : JSON.stringify(row.detail),
    summary: row.summary === undefined ? null : JSON.stringify({ en: row.summary.en, zh: row.summary.zh }),
  };
  const record = await writeTransaction(db, async (transaction) => {
    if (engineOf(transaction) === 'postgres')
      await sql`select pg_advisory_xact_lock(${auditChainLockKey})`.execute(transaction);
    const head = await chainHead(transaction);
    const chained = {
      ...values,
      seq: (head?.seq ?? 0) + 1,
      chained_at: laterOf(new Date().toISOString(), head?.chained_at),
    };
    const prevHash = head?.hash ?? genesisHash;
    return transaction
      .insertInto('tool_audit')
      .values({ ...chained, prev_hash: prevHash, hash: chainHash(prevHash, chainedFieldsOfRecord(chained)) })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return toAuditRow(record);
}

/**
 * Gives every row not yet in the chain its place, in id order, after the chain's head:
 * the migration that adds the chain uses it for the rows written before it existed.
 */
export async function chainUnchainedAuditRows(db: Db): Promise<number> {
  const head = await chainHead(db);
  let seq = head?.seq ?? 0;
  let prevHash = head?.hash ?? genesisHash;
  let chainedAt = head?.chained_at ?? null;
  const records = await db
    .selectFrom('tool_audit')
    .selectAll()
    .where('seq', 'is', null)
    .orderBy('id')
    .execute();
  for (const record of records) {
    seq += 1;
    chainedAt = laterOf(record.created_at, chainedAt);
    const hash = chainHash(prevHash, chainedFieldsOfRecord({ ...record, seq, chained_at: chainedAt }));
    await db
      .updateTable('tool_audit')
      .set({ seq, chained_at: chainedAt, prev_hash: prevHash, hash })
      .where('id', '=', record.id)
      .execute();
    prevHash = hash;
  }
  return records.length;
}

/** One page of {@link listAuditExportRows}. */
export type AuditExportQuery = {
  /** Rows that joined the chain at or after this time (ISO 8601). */
  since?: string;
  /** Rows that joined the chain before this time (ISO 8601). */
  until?: string;
  /** Rows after this place in the chain (the last `seq` of the page before). */
  afterSeq?: number;
  limit: number;
};

/** Chained audit rows, oldest first, as the export writes them. */
export async function listAuditExportRows(
  db: Db,
  { since, until, afterSeq = 0, limit }: AuditExportQuery,
): Promise<AuditExportRow[]> {
  const records = await db
    .selectFrom('tool_audit')
    .selectAll()
    .where('seq', '>', afterSeq)
    .$if(since !== undefined, (query) => query.where('chained_at', '>=', since as string))
    .$if(until !== undefined, (query) => query.where('chained_at', '<', until as string))
    .orderBy('seq')
    .limit(limit)
    .execute();
  return records.map((record) => ({
    id: record.id,
    ...chainedFieldsOfRecord({
      ...record,
      seq: record.seq as number,
      chained_at: record.chained_at as string,
    }),
    prevHash: record.prev_hash as string,
    hash: record.hash as string,
  }));
}

/** Filters of {@link listAuditRows}; every one is optional except `limit`. */
export type AuditQuery = {
  /** One user's rows (with those they wrote as a guest before signing in); absent: every user's (admins). */
  userId?: string;
  chatId?: string;
  toolName?: string;
  outcome?: AuditOutcome;
  /** At most this many rows. */
  limit: number;
};

/** Audit rows matching every given filter, newest first (in the order they were written). */
export async function listAuditRows(
  db: Db,
  { userId, chatId, toolName, outcome, limit }: AuditQuery,
): Promise<AuditRow[]> {
  const records = await db
    .selectFrom('tool_audit')
    .selectAll()
    .$if(userId !== undefined, (query) =>
      query.where((eb) =>
        eb.or([
          eb('user_id', '=', userId as string),
          // Rows written as a guest keep the guest's id (the chain covers it) and stay theirs.
          eb(
            'user_id',
            'in',
            eb
              .selectFrom('guest_link')
              .select('guest_link.guest_id')
              .where('guest_link.user_id', '=', userId as string),
          ),
        ]),
      ),
    )
    .$if(chatId !== undefined, (query) => query.where('chat_id', '=', chatId as string))
    .$if(toolName !== undefined, (query) => query.where('tool_name', '=', toolName as string))
    .$if(outcome !== undefined, (query) => query.where('outcome', '=', outcome as string))
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return records.map(toAuditRow);
}
