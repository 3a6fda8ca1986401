import type { DenialReason } from '@toolgate/engine';

/**
 * The life cycle of a tool call that waits for a person. Every change is a
 * compare-and-set on the row (`UPDATE … WHERE status = from`), so when two
 * instances, two tabs or a decision and a deadline race, exactly one wins and
 * the others see that they lost.
 *
 * pending ─┬─ approved ── executing ─┬─ executed
 *          ├─ denied                  └─ failed
 *          ├─ expired     (the deadline passed)
 *          ├─ stopped     (the user pressed Stop)
 *          ├─ superseded  (the user sent a new message instead)
 *          ├─ withdrawn   (the requester took back a call that waited for someone else)
 *          └─ closed      (the chat was deleted)
 *
 * A pending approval with several steps (a policy rule) stays pending while its steps fill;
 * the step that completes it moves it on, in the same compare-and-set.
 */
export type ApprovalStatus =
  | 'pending'
  | 'approved'
  | 'denied'
  | 'expired'
  | 'stopped'
  | 'superseded'
  | 'withdrawn'
  | 'closed'
  | 'executing'
  | 'executed'
  | 'failed';

/** The only moves the life cycle allows; a move not written here throws. */
export const approvalTransitions: Readonly<Record<ApprovalStatus, readonly ApprovalStatus[]>> = {
  pending: ['approved', 'denied', 'expired', 'stopped', 'superseded', 'withdrawn', 'closed'],
  approved: ['executing'],
  executing: ['executed', 'failed'],
  denied: [],
  expired: [],
  stopped: [],
  superseded: [],
  withdrawn: [],
  closed: [],
  executed: [],
  failed: [],
};

/** Every status, in the order of the life cycle. */
export const approvalStatuses = Object.keys(approvalTransitions) as ApprovalStatus[];

/** Throws unless `from → to` is in {@link approvalTransitions}. */
export function assertTransition(from: ApprovalStatus, to: ApprovalStatus): void {
  if (!approvalTransitions[from]?.includes(to)) {
    throw new Error(`An approval cannot go from ${from} to ${to}`);
  }
}

/** Ends of a pending approval that are not an allow: the call returns a denial. */
export type DeniedStatus = 'denied' | 'expired' | 'stopped' | 'superseded' | 'withdrawn' | 'closed';

/** The denial reason the model and the card see for each way a pending approval ends. */
export const reasonByStatus: Readonly<
  Record<
    DeniedStatus,
    Exclude<DenialReason, 'policy' | 'sign_in_required' | 'quota' | 'policy_changed' | 'no_approver'>
  >
> = {
  denied: 'denied',
  expired: 'timeout',
  stopped: 'aborted',
  superseded: 'superseded',
  withdrawn: 'withdrawn',
  closed: 'closed',
};

/** The row status a registry's own denial stands for (a person's "no" is already on the row). */
export const statusByRegistryReason: Readonly<Partial<Record<DenialReason, DeniedStatus>>> = {
  timeout: 'expired',
  aborted: 'stopped',
  closed: 'closed',
};

/** Every status a pending approval can end in without running. */
export const deniedStatuses = Object.keys(reasonByStatus) as DeniedStatus[];

/** True for a status a pending approval ends in without running. */
export function isDeniedStatus(status: ApprovalStatus): status is DeniedStatus {
  return Object.hasOwn(reasonByStatus, status);
}

/**
 * Why a call ended without running, when its status alone does not say: `policy_changed`,
 * a `denied` call re-judged under a newer policy that refuses it (stored as `end_reason`).
 */
export type EndReason = Extract<DenialReason, 'policy_changed'>;

/** The denial reason of a row that ended without running: its stored end reason, else its status's. */
export function denialReasonOf(row: { status: DeniedStatus; endReason?: EndReason }): DenialReason {
  return row.endReason ?? reasonByStatus[row.status];
}
