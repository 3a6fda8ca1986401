import 'server-only';
import type { ApprovalNotices } from '../life-cycle/approval-notices';
import { announceApproval } from './announce-approval';
import { mailApprovers } from './approval-mail';
import { announceToApprovers, earliestDueReminder, reminderAt, sendDueReminders } from './approval-reminders';
import { reportNoApprover } from './report-no-approver';
import { tellRequester } from './requester-outcome';

/**
 * The notices the life cycle sends, as this product sends them: approver mail and its
 * reminders through the outbox (`SMTP_URL`), the approval webhook (`TOOLGATE_APPROVAL_WEBHOOK_URL`),
 * the requester told in the chat and by mail, the operators told of a step nobody can fill.
 * `lib/approvals/index.ts` installs it.
 */
export const tellOfApprovals: ApprovalNotices = {
  requested(db, approval) {
    announceApproval(db, approval.id, { type: 'approval.requested' });
    return announceToApprovers(db, approval);
  },
  // New role holders are mailed as at a request; the mail's key keeps it to one per person.
  stepsReplaced: (db, approval, now) => announceToApprovers(db, approval, now),
  settled(db, approvalId, status) {
    announceApproval(db, approvalId, { type: 'approval.settled', status });
  },
  async escalated(db, approvalId, { to, now }) {
    announceApproval(db, approvalId, { type: 'approval.escalated' });
    await tellRequester(db, approvalId, { kind: 'escalated', role: to }, { notice: true });
    await mailApprovers(db, approvalId, 'escalated', { roles: [to], now }).catch((error: unknown) =>
      console.error(`[toolgate] mail: could not tell the new approvers of approval ${approvalId}:`, error),
    );
  },
  reminderAt,
  nextReminderAt: earliestDueReminder,
  sendDueReminders: (db, now) => sendDueReminders(db, now),
  requesterTold: tellRequester,
  noApprover: reportNoApprover,
};
