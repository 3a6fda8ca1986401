import type { ApprovalStatus, DeniedStatus } from '@/lib/db';
import type { DenialReason } from '@/lib/stores';

/** The denial reason the model and the card see for each way a pending approval ends. */
export const reasonByStatus: Record<DeniedStatus, DenialReason> = {
  denied: 'denied',
  expired: 'timeout',
  stopped: 'aborted',
  superseded: 'superseded',
  closed: 'closed',
};

/** Every status a pending approval can end in without running. */
export const deniedStatuses = Object.keys(reasonByStatus) as DeniedStatus[];

/** True for a status a pending approval ends in without running. */
export function isDeniedStatus(status: ApprovalStatus): status is DeniedStatus {
  return Object.hasOwn(reasonByStatus, status);
}
