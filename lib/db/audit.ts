import type { Selectable } from 'kysely';
import type { Db } from './engine';
import type { ToolAuditTable } from './schema';

/**
 * How a tool call ended, as the audit log records it. `denied`, `timeout`,
 * `aborted` and `closed` are the approval shell's denial reasons; `replayed`
 * means the idempotency shell answered from an earlier execution; `approved_by_rule`
 * means the call ran without a card because the user allowed the tool for that chat.
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
] as const;

export type AuditOutcome = (typeof auditOutcomes)[number];

/** One tool call as the audit shell reports it. The arguments are stored as a hash, beside the call's summary. */
export type NewAuditRow = {
  /** The user whose turn made the call. */
  userId?: string | null;
  chatId: string;
  worker: string;
  toolName: string;
  /** The AI SDK's id of the call, to line a row up with the tool part in the chat. */
  toolCallId: string;
  /** Hex sha256 of `stableStringify(input)`: equal arguments give equal hashes. */
  argsHash: string;
  outcome: AuditOutcome;
  durationMs: number;
  /** When the call started (ISO 8601). */
  createdAt: string;
  /** What the person added: they edited the input, or said why not. */
  detail?: AuditDetail;
  /** The tool's one-line summary of the call in each UI language; absent for tools without one. */
  summary?: AuditSummary;
};

/** A call's one-line summary in each UI language (“Create ticket “printer broken”” / “创建工单「打印机坏了」”). */
export type AuditSummary = { en: string; zh: string };

/** What a person added to an approval, as the audit row keeps it. */
export type AuditDetail = { edited?: true; note?: string };

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

/** Appends one row to the audit log. */
export async function insertAuditRow(db: Db, row: NewAuditRow): Promise<AuditRow> {
  const record = await db
    .insertInto('tool_audit')
    .values({
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
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toAuditRow(record);
}

/** Filters of {@link listAuditRows}; every one is optional except `limit`. */
export type AuditQuery = {
  /** One user's rows; absent: every user's (admins). */
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
    .$if(userId !== undefined, (query) => query.where('user_id', '=', userId as string))
    .$if(chatId !== undefined, (query) => query.where('chat_id', '=', chatId as string))
    .$if(toolName !== undefined, (query) => query.where('tool_name', '=', toolName as string))
    .$if(outcome !== undefined, (query) => query.where('outcome', '=', outcome as string))
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return records.map(toAuditRow);
}
