import 'server-only';
import type { ApprovalRegistry } from '@toolgate/engine';
import type {
  ApprovalDecision,
  ApprovalPreview,
  ApprovalRequest,
  ConfirmOptions,
} from '@toolgate/engine/stores';
import { eitherSignal } from '@toolgate/engine/stores';
import type { Db } from '@/lib/db/engine';
import { currentTraceParent } from '@/lib/telemetry/trace-parent';
import { finishExecution, parkApproval, requestApproval, takeWokenDecision } from './approval-life-cycle';
import { approvalNotices } from './approval-notices';
import type { TurnParking } from './turn-parking';

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
  /** The user message that led to the turn's calls (for approvers' lists), already truncated. */
  excerpt?: string;
  /**
   * The tool's preview of a call, stored with the row and shown on its card; must not throw
   * and must be bounded (`computeToolPreview`). Absent: no previews.
   */
  preview?: (call: { toolName: string; input: unknown }) => Promise<ApprovalPreview | undefined>;
};

/**
 * An approval registry whose decisions live in the database. The call still
 * waits on `registry` (the live path: the same response continues), but the row
 * is the truth: it is written before the card is shown, a decision is a
 * compare-and-set on it, and when the waiting call wakes it takes on what the row
 * says. A call whose decision was taken over by a continuation (its instance looked
 * gone) is never executed here.
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
  excerpt,
  preview: previewOf,
}: DurableApprovalRegistryOptions): ApprovalRegistry {
  async function confirm(request: ApprovalRequest, options: ConfirmOptions): Promise<ApprovalDecision> {
    let approvalId: string | undefined;
    let expiresAt = 0;
    let stopWaiting: (() => void) | undefined;
    const decision = await registry.confirm(request, {
      ...options,
      signal: eitherSignal(options.signal, parking?.signal),
      emit: async (requested) => {
        const preview = await previewOf?.({ toolName: requested.toolName, input: requested.input });
        const event = {
          ...requested,
          ...(preview !== undefined && { preview }),
          ...(request.provenance !== undefined && { provenance: request.provenance }),
        };
        await requestApproval(db, {
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
          ...(request.steps !== undefined && { steps: request.steps }),
          ...(request.ruleLabel !== undefined && { ruleLabel: request.ruleLabel }),
          ...(excerpt !== undefined && { excerpt }),
          ...(preview !== undefined && { preview }),
          ...(request.provenance !== undefined && { provenance: request.provenance }),
        });
        approvalId = event.approvalId;
        expiresAt = event.expiresAt;
        // A call that waits for someone else's step waits hours: the turn may park at once.
        stopWaiting = parking?.wait({ long: request.steps?.some((step) => step.kind === 'role') ?? false });
        await options.emit(event);
      },
    });
    if (parking?.parked) {
      if (approvalId !== undefined) parkApproval(db, approvalId, expiresAt);
      return new Promise<never>(() => undefined);
    }
    stopWaiting?.();
    // No row: the request was never shown, so the registry's own denial stands.
    if (approvalId === undefined) return decision;
    const taken = await takeWokenDecision(db, approvalId, decision);
    if (taken === undefined) {
      onTakenOver();
      return { approved: false, reason: 'aborted', approvalId };
    }
    // A request that waited for someone else ended unrun while its turn was live: the requester
    // is mailed (a run is told after it ran, by the turn's approvals).
    if (!taken.approved && (taken.reason === 'denied' || taken.reason === 'timeout'))
      await approvalNotices().requesterTold(
        db,
        approvalId,
        { kind: taken.reason === 'denied' ? 'denied' : 'expired' },
        { notice: false },
      );
    return { ...taken, approvalId };
  }

  return {
    confirm: confirm as ApprovalRegistry['confirm'],
    resolve: (...args) => registry.resolve(...args),
    closeSession: (sessionId) => registry.closeSession(sessionId),
    extend: (...args) => registry.extend(...args),
  };
}

/** Records how an approved call's execution ended. */
export const recordExecution = finishExecution;
