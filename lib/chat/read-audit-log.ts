import 'server-only';
import { type AuditOutcome, type AuditRow, getDb, listAuditRows } from '@/lib/db';

/** Filters of {@link readAuditLog}, as the audit endpoint and page take them. */
export type AuditLogQuery = {
  /** One user's rows; absent: everyone's (admins only — the caller checks). */
  userId?: string;
  chatId?: string;
  tool?: string;
  outcome?: AuditOutcome;
  limit: number;
};

/** The tool-call audit log, newest first, filtered by user, chat, tool and outcome. */
export async function readAuditLog({
  userId,
  chatId,
  tool,
  outcome,
  limit,
}: AuditLogQuery): Promise<AuditRow[]> {
  return listAuditRows(await getDb(), { userId, chatId, toolName: tool, outcome, limit });
}
