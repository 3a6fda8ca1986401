import 'server-only';
import { auditOutcomeOfDenial } from '@toolgate/engine';
import { isTainted } from '@toolgate/engine/provenance';
import { insertAuditRow } from '@/lib/db/audit';
import type { AuditDetail } from '@/lib/db/audit-chain';
import type { Db } from '@/lib/db/engine';
import { observeParkedDenial } from '@/lib/telemetry/observe-audited-call';
import { type ApprovalRecord, decisionRecordOf } from './approval-rows';
import { type DeniedStatus, denialReasonOf } from './approval-states';
import { auditFieldsOfApproval } from './audit-fields-of-approval';

/**
 * The audit row of a call that waited while no turn held it (parked, or its server
 * gone) and then ended without running: a person's "no", the deadline, Stop, a new
 * message, a deleted chat, or a newer policy that refuses it (`denied`, with `policyChanged`
 * in the detail). A live turn's audit shell writes the same row; the
 * caller has claimed the approval, so exactly one of them does. A failure to write
 * is logged, as the audit shell does: it never undoes the settlement.
 */
export async function auditApprovalEnd(
  db: Db,
  row: ApprovalRecord,
  status: DeniedStatus,
  detail: AuditDetail = {},
): Promise<void> {
  const startedAt = Date.parse(row.createdAt);
  const reason = denialReasonOf({ status, endReason: row.endReason });
  const outcome = auditOutcomeOfDenial[reason];
  observeParkedDenial({
    ...row,
    outcome,
    waitMs: Math.max(0, Date.now() - startedAt),
    ...(row.provenance !== undefined && { tainted: isTainted(row.provenance) }),
  });
  try {
    const allDetail: AuditDetail = {
      ...(await decisionRecordOf(db, row)),
      ...(row.provenance !== undefined &&
        isTainted(row.provenance) && {
          provenance: {
            tainted: row.provenance.tainted,
            provenance: Object.fromEntries(
              row.provenance.tainted.map((path) => [path, row.provenance?.provenance[path] ?? []]),
            ),
            ...(row.provenance.context !== undefined && { context: row.provenance.context }),
            ...(row.provenance.untraced === true && { untraced: true as const }),
          },
        }),
      reason,
      ...(row.endReason === 'policy_changed' && { policyChanged: true }),
      ...detail,
      ...(row.note !== undefined && { note: row.note }),
    };
    await insertAuditRow(db, {
      ...auditFieldsOfApproval(row),
      outcome,
      ...(Object.keys(allDetail).length > 0 && { detail: allDetail }),
      durationMs: Math.max(0, Date.now() - startedAt),
      createdAt: row.createdAt,
    });
  } catch (error) {
    console.error('[toolgate] could not write an audit row:', error);
  }
}
