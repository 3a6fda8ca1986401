import { denialReasonOfAudit } from '@toolgate/engine';
import type { Dictionary } from '@/components/i18n';
import type { AuditRow } from '@/lib/db/audit';

/**
 * What the audit page says of a row's decision, one line each: why it was refused (the text of
 * its denial reason), who decided, the rule, the wait, an edit, a note.
 */
export function auditDecisionLines(
  row: Pick<AuditRow, 'outcome' | 'detail'>,
  text: Dictionary['audit'],
  denials: Dictionary['denials'],
  names: ReadonlyMap<string, string>,
): string[] {
  const detail = row.detail;
  if (detail === null || detail === undefined) return [];
  const reason = denialReasonOfAudit(row);
  const refusal = reason === undefined ? null : denials[reason].audit;
  return [
    ...(refusal !== null ? [refusal] : []),
    ...(detail.deciders?.length
      ? [text.decidedBy(detail.deciders.map((id) => names.get(id) ?? id).join(', '))]
      : []),
    ...(detail.rule !== undefined ? [text.rule(detail.rule)] : []),
    ...(detail.waitMs !== undefined ? [text.waited(Math.round(detail.waitMs / 1000))] : []),
    ...(detail.edited ? [text.edited] : []),
    ...(detail.note !== undefined ? [text.note(detail.note)] : []),
  ];
}
