import type { SqliteDatabase } from './open-database';
import { statement } from './statement';

/**
 * How a tool call ended, as the audit log records it. `denied`, `timeout`,
 * `aborted` and `closed` are the approval shell's denial reasons; `replayed`
 * means the idempotency shell answered from an earlier execution.
 */
export const auditOutcomes = [
  'executed',
  'replayed',
  'denied',
  'timeout',
  'aborted',
  'closed',
  'error',
  'rate_limited',
] as const;

export type AuditOutcome = (typeof auditOutcomes)[number];

/** One tool call as the audit shell reports it. The arguments are only ever stored as a hash. */
export type NewAuditRow = {
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
};

/** A stored audit row. */
export type AuditRow = NewAuditRow & { id: number };

type AuditRecord = {
  id: number;
  chat_id: string;
  worker: string;
  tool_name: string;
  tool_call_id: string;
  args_hash: string;
  outcome: AuditOutcome;
  duration_ms: number;
  created_at: string;
};

function toAuditRow(record: AuditRecord): AuditRow {
  return {
    id: record.id,
    chatId: record.chat_id,
    worker: record.worker,
    toolName: record.tool_name,
    toolCallId: record.tool_call_id,
    argsHash: record.args_hash,
    outcome: record.outcome,
    durationMs: record.duration_ms,
    createdAt: record.created_at,
  };
}

/** Appends one row to the audit log. */
export function insertAuditRow(db: SqliteDatabase, row: NewAuditRow): AuditRow {
  const record = statement<[string, string, string, string, string, string, number, string], AuditRecord>(
    db,
    `INSERT INTO tool_audit (chat_id, worker, tool_name, tool_call_id, args_hash, outcome, duration_ms, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
  ).get(
    row.chatId,
    row.worker,
    row.toolName,
    row.toolCallId,
    row.argsHash,
    row.outcome,
    Math.max(0, Math.round(row.durationMs)),
    row.createdAt,
  );
  if (record === undefined) throw new Error('Inserting an audit row returned no row');
  return toAuditRow(record);
}

/** Filters of {@link listAuditRows}; every one is optional except `limit`. */
export type AuditQuery = {
  chatId?: string;
  toolName?: string;
  outcome?: AuditOutcome;
  /** At most this many rows. */
  limit: number;
};

/** Audit rows matching every given filter, newest first (in the order they were written). */
export function listAuditRows(
  db: SqliteDatabase,
  { chatId, toolName, outcome, limit }: AuditQuery,
): AuditRow[] {
  const conditions: string[] = [];
  const parameters: (string | number)[] = [];
  if (chatId !== undefined) {
    conditions.push('chat_id = ?');
    parameters.push(chatId);
  }
  if (toolName !== undefined) {
    conditions.push('tool_name = ?');
    parameters.push(toolName);
  }
  if (outcome !== undefined) {
    conditions.push('outcome = ?');
    parameters.push(outcome);
  }
  const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
  return statement<(string | number)[], AuditRecord>(
    db,
    `SELECT * FROM tool_audit ${where} ORDER BY id DESC LIMIT ?`,
  )
    .all(...parameters, limit)
    .map(toAuditRow);
}
