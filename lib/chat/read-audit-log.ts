import 'server-only';
import { type AuditOutcome, type AuditRow, getDb, listAuditRows } from '@/lib/db';

/** Filters of {@link readAuditLog}, as the audit endpoint and page take them. */
export type AuditLogQuery = { chatId?: string; tool?: string; outcome?: AuditOutcome; limit: number };

/** The tool-call audit log, newest first, filtered by chat, tool and outcome. */
export async function readAuditLog({ chatId, tool, outcome, limit }: AuditLogQuery): Promise<AuditRow[]> {
  return listAuditRows(await getDb(), { chatId, toolName: tool, outcome, limit });
}
