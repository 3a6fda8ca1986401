import { revealHiddenInSummary } from '@toolgate/engine/client';
import { hashToolArguments } from '@toolgate/engine/shells';
import type { Db } from '@/lib/db';
import { insertAuditRow, type NewAuditRow } from '@/lib/db/audit';
import { summarizeToolCall } from '@/lib/tools/tool-summaries';
import type { ApprovalRecord } from './approval-rows';

/** The fields of an audit row that name an approval's call: whose, where, which tool, its argument hash and summary. */
export function auditFieldsOfApproval(
  row: ApprovalRecord,
): Pick<NewAuditRow, 'userId' | 'chatId' | 'worker' | 'toolName' | 'toolCallId' | 'argsHash' | 'summary'> {
  const summary = summarizeToolCall(row.toolName, row.input);
  return {
    userId: row.ownerId,
    chatId: row.chatId,
    worker: row.worker,
    toolName: row.toolName,
    toolCallId: row.toolCallId,
    argsHash: hashToolArguments(row.input),
    ...(summary !== undefined && { summary: revealHiddenInSummary(summary) }),
  };
}

/**
 * Records an event of an approval that still waits (escalated, a question asked or answered):
 * its call's fields, the rule and how long it has waited so far. Never throws: a failed write
 * is logged, and the event it records has happened either way.
 */
export async function auditWhileWaiting(
  db: Db,
  row: ApprovalRecord,
  {
    outcome,
    detail,
    now,
    userId,
  }: {
    outcome: NewAuditRow['outcome'];
    detail: Record<string, unknown>;
    now: number;
    userId?: string | null;
  },
): Promise<void> {
  const waitMs = Math.max(0, now - Date.parse(row.createdAt));
  try {
    await insertAuditRow(db, {
      ...auditFieldsOfApproval(row),
      ...(userId !== undefined && { userId }),
      outcome,
      detail: { ...detail, ...(row.ruleLabel !== undefined && { rule: row.ruleLabel }), waitMs },
      durationMs: waitMs,
      createdAt: new Date(now).toISOString(),
    });
  } catch (error) {
    console.error('[toolgate] could not write an audit row:', error);
  }
}
