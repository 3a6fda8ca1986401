import 'server-only';
import {
  claimApproval,
  createApproval,
  type Db,
  type DeniedStatus,
  getApproval,
  transitionApproval,
} from '@/lib/db';
import { eitherSignal } from '@/lib/shells/wrap-tools-with-approval';
import type {
  ApprovalDecision,
  ApprovalRegistry,
  ApprovalRequest,
  ConfirmOptions,
  DenialReason,
} from '@/lib/stores';
import { currentTraceParent } from '@/lib/telemetry/trace-parent';
import { isDeniedStatus, reasonByStatus } from './denied-statuses';
import { watchParkedDeadline } from './parked-deadlines';
import type { TurnParking } from './turn-parking';

/** The row status a registry's own denial stands for (a person's "no" is already on the row). */
const statusByRegistryReason: Partial<Record<DenialReason, DeniedStatus>> = {
  timeout: 'expired',
  aborted: 'stopped',
  closed: 'closed',
};

/** Options of {@link createDurableApprovalRegistry}. */
export type DurableApprovalRegistryOptions = {
  db: Db;
  /** Wakes the waiting call (memory, or Redis across instances); the row says what was decided. */
  registry: ApprovalRegistry;
  /** The worker whose table holds the tool, so a continuation can rebuild it. */
  worker: string;
  /** The assistant message the turn builds. */
  messageId: string;
  /** Called when a continuation on another instance took this call over: the turn must end quietly. */
  onTakenOver: () => void;
  /**
   * The turn's parking: while it is parked nothing here waits any more, and a call
   * woken after it parked leaves its decision on the row for the continuation.
   */
  parking?: TurnParking;
};

/**
 * An approval registry whose decisions live in the database. The call still
 * waits on `registry` (the live path: the same response continues), but the row
 * is the truth: it is written before the card is shown, a decision is a
 * compare-and-set on it, and when the waiting call wakes it reads the row and
 * takes the decision on (claims it). A call whose decision was taken over by a
 * continuation (its instance looked gone) is never executed here.
 *
 * A parked turn's calls never return: the model loop that awaited them has ended
 * and nothing is left to read their result; the decision continues the turn from
 * the database instead (`continueParkedTurn`). No audit row, no execution here.
 */
export function createDurableApprovalRegistry({
  db,
  registry,
  worker,
  messageId,
  onTakenOver,
  parking,
}: DurableApprovalRegistryOptions): ApprovalRegistry {
  async function confirm(request: ApprovalRequest, options: ConfirmOptions): Promise<ApprovalDecision> {
    let approvalId: string | undefined;
    let expiresAt = 0;
    let stopWaiting: (() => void) | undefined;
    const decision = await registry.confirm(request, {
      ...options,
      signal: eitherSignal(options.signal, parking?.signal),
      emit: async (event) => {
        await createApproval(db, {
          id: event.approvalId,
          chatId: request.sessionId,
          ownerId: request.ownerId ?? null,
          messageId,
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          worker,
          input: event.input,
          expiresAt: event.expiresAt,
          traceParent: currentTraceParent(),
        });
        approvalId = event.approvalId;
        expiresAt = event.expiresAt;
        stopWaiting = parking?.wait();
        await options.emit(event);
      },
    });
    if (parking?.parked) {
      if (approvalId !== undefined) watchParkedDeadline(db, approvalId, expiresAt);
      return new Promise<never>(() => undefined);
    }
    stopWaiting?.();
    // No row: the request was never shown, so the registry's own denial stands.
    if (approvalId === undefined) return decision;
    return { ...(await settle(approvalId, decision)), approvalId };
  }

  /** Reads what the row says, moving it first if this wake-up was the deadline or Stop. */
  async function settle(approvalId: string, decision: ApprovalDecision): Promise<ApprovalDecision> {
    const own = decision.approved ? undefined : statusByRegistryReason[decision.reason];
    let claimed =
      own !== undefined && (await transitionApproval(db, approvalId, 'pending', own, { claim: true }));
    let row = await getApproval(db, approvalId);
    if (row?.status === 'pending') {
      // Woken without a decision on the row (a registry error): fail closed.
      claimed = await transitionApproval(db, approvalId, 'pending', 'stopped', { claim: true });
      row = await getApproval(db, approvalId);
    }
    if (row === undefined) return { approved: false, reason: 'aborted' };
    if (row.status === 'approved') {
      if (await transitionApproval(db, approvalId, 'approved', 'executing', { claim: true })) {
        return { approved: true, ...(row.editedInput !== undefined && { input: row.editedInput }) };
      }
    } else if (isDeniedStatus(row.status)) {
      if (claimed || (await claimApproval(db, approvalId, row.status))) {
        return {
          approved: false,
          reason: reasonByStatus[row.status],
          ...(row.note !== undefined && { note: row.note }),
        };
      }
    }
    onTakenOver();
    return { approved: false, reason: 'aborted' };
  }

  return {
    confirm: confirm as ApprovalRegistry['confirm'],
    resolve: (...args) => registry.resolve(...args),
    closeSession: (sessionId) => registry.closeSession(sessionId),
    extend: (...args) => registry.extend(...args),
  };
}

/** Records how an approved call's execution ended. */
export async function recordExecution(db: Db, approvalId: string | undefined, ok: boolean): Promise<void> {
  if (approvalId === undefined) return;
  await transitionApproval(db, approvalId, 'executing', ok ? 'executed' : 'failed');
}
