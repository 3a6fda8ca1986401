import 'server-only';
import { type AuditOutcome, type AuditRow, getDb, listAuditExportRows, listAuditRows } from '@/lib/db';

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

/** Rows per database read while streaming an export. */
const exportPageSize = 500;

/**
 * The chained audit log as JSON Lines, oldest first, read from the database a page at a
 * time as the client takes it (an export of the whole log never sits in memory). Only
 * rows that joined the chain in `[since, until)` when given; any run of consecutive rows
 * verifies on its own (`npm run audit:verify`).
 */
export async function streamAuditExport({
  since,
  until,
}: {
  since?: string;
  until?: string;
}): Promise<ReadableStream<Uint8Array>> {
  const db = await getDb();
  const encoder = new TextEncoder();
  let afterSeq = 0;
  return new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      const rows = await listAuditExportRows(db, { since, until, afterSeq, limit: exportPageSize });
      if (rows.length > 0) {
        afterSeq = rows[rows.length - 1].seq;
        controller.enqueue(encoder.encode(rows.map((row) => `${JSON.stringify(row)}\n`).join('')));
      }
      if (rows.length < exportPageSize) controller.close();
    },
  });
}
