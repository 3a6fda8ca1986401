import { revealHiddenInSummary } from '@toolgate/engine/client';
import { hashToolArguments } from '@toolgate/engine/shells';
import type { NewAuditRow } from '@/lib/db/audit';
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
