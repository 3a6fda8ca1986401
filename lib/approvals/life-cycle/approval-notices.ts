import 'server-only';
import type { Db } from '@/lib/db/engine';
import type { NewApproval } from './approval-rows';
import type { ApprovalStatus } from './approval-states';

/*
 * The life cycle's port for what it tells as an approval moves: it names the moments and what
 * they carry, and `lib/approvals/notices/` (installed by `lib/approvals/index.ts`) says them.
 */

/** How a request that waited for someone else came out, as its requester is told. */
export type RequesterOutcome =
  | { kind: 'executed'; output?: unknown }
  | { kind: 'failed' }
  | { kind: 'denied' }
  | { kind: 'expired' }
  | { kind: 'escalated'; role: string };

/** A call refused because a role step of its rule can never be filled, as the operators are told. */
export type NoApproverReport = {
  toolName: string;
  input: unknown;
  /** The rule that asked for the steps. */
  rule: string;
  /**
   * Each group of steps too few people can fill (one person fills one step): its roles, how
   * many different people it needs, how many besides the requester hold any of its roles.
   */
  short: readonly { roles: readonly string[]; needed: number; holders: number }[];
  requesterId: string;
};

/** A call put before people, as the notices need it. */
type WaitingCall = Pick<NewApproval, 'id' | 'steps' | 'expiresAt'>;

/**
 * What the life cycle tells as an approval moves; `lib/approvals/notices/` sends it (approver
 * mail and its reminders, the webhook, the requester told, the operators told). The life cycle
 * only says when: none of these waits for a delivery or throws, and the move stands whatever
 * becomes of its notice. Reminders are due at the row's `remind_at`, which the deadline keeper
 * finds by query with the other deadlines.
 */
export type ApprovalNotices = {
  /**
   * A call started waiting for people: the webhook's `approval.requested`, and the holders of
   * its role steps mailed. Returns when their reminder is due (the deadline keeper must wake
   * by then); undefined when nobody is mailed.
   */
  requested(db: Db, approval: WaitingCall): number | undefined;
  /** A newer policy replaced a waiting call's steps: their holders mailed as at a request. Returns as `requested`. */
  stepsReplaced(db: Db, approval: WaitingCall, now: number): number | undefined;
  /** The call left `pending` as `status`: the webhook's `approval.settled`. */
  settled(db: Db, approvalId: string, status: ApprovalStatus): void;
  /** Its open role steps went to role `to`: the webhook's `approval.escalated`, the requester told, `to`'s holders mailed. */
  escalated(db: Db, approvalId: string, escalation: { to: string; now: number }): Promise<void>;
  /** When approvers who wait from `now` until `expiresAt` are reminded; undefined when nobody is mailed. */
  reminderAt(now: number, expiresAt: number): number | undefined;
  /** When the earliest reminder of a pending approval is due; undefined when none is. */
  nextReminderAt(db: Db): Promise<number | undefined>;
  /** Sends the reminders due at `now`. */
  sendDueReminders(db: Db, now: number): Promise<void>;
  /** A request that waited for someone else came out as `outcome`: its requester told (with `notice`, in the chat too). */
  requesterTold(
    db: Db,
    approvalId: string,
    outcome: RequesterOutcome,
    options: { notice: boolean },
  ): Promise<void>;
  /** A call was refused with `no_approver`: the operators told (the log, the webhook). */
  noApprover(db: Db, report: NoApproverReport): void;
};

/** Sends nothing: what the life cycle has before the door installs the notices. */
const unsent: ApprovalNotices = {
  requested: () => undefined,
  stepsReplaced: () => undefined,
  settled: () => undefined,
  escalated: async () => undefined,
  reminderAt: () => undefined,
  nextReminderAt: async () => undefined,
  sendDueReminders: async () => undefined,
  requesterTold: async () => undefined,
  noApprover: () => undefined,
};

let installed: ApprovalNotices | undefined;
let missingReported = false;

/**
 * Installs the notices the life cycle sends. `lib/approvals/index.ts` does it as it loads, and
 * everything outside `lib/approvals/` that runs the life cycle comes through that door
 * (`tests/engine/folder-order.test.ts` pins it), so each copy of the life cycle a bundle loads
 * has them before it moves a row.
 */
export function installApprovalNotices(notices: ApprovalNotices): void {
  installed = notices;
}

/**
 * The notices the life cycle sends. Without an installation (the life cycle reached past its
 * door) it sends none and says so once in the log: a missing mail must never stop a decision
 * or the deadline keeper.
 */
export function approvalNotices(): ApprovalNotices {
  if (installed !== undefined) return installed;
  if (!missingReported) {
    missingReported = true;
    console.error(
      '[toolgate] approvals: no notices are installed, so no approver mail, reminder, webhook or requester notice goes out: reach the approval life cycle through lib/approvals, whose index installs them',
    );
  }
  return unsent;
}
