import 'server-only';
import type { UIMessage } from 'ai';
import type { AppConfig } from '@/lib/config';
import type { Db } from '@/lib/db';
import { getApprovalRegistry } from '@/lib/server/stores';
import { createPendingApprovalLimiter } from '@/lib/server/user-rate-limits';
import { checkToolPrecondition } from '@/lib/tools/check-tool-precondition';
import { computeToolPreview } from '@/lib/tools/compute-tool-preview';
import type { TurnApprovalOptions } from '@/lib/turn-table/assemble-turn-tools';
import type { WorkerTable } from '@/lib/turn-table/build-worker-table';
import { approvalNotices } from './approval-notices';
import { excerptOf } from './approval-parts';
import { policyAsk } from './approval-policy';
import { createDurableApprovalRegistry, recordExecution } from './durable-approval-registry';
import { approvedByRuleOrGrant } from './standing-grants';
import { createTurnParking, type TurnParking } from './turn-parking';

/** What one turn tells its approvals. */
export type TurnApprovalsOptions = {
  db: Db;
  config: Pick<
    AppConfig,
    'AGENT_CONFIRM_TIMEOUT_MS' | 'TOOLGATE_PARK_AFTER_MS' | 'TOOLGATE_MAX_PENDING_APPROVALS'
  >;
  chatId: string;
  /** The user who owns the chat and asks for the calls. */
  ownerId: string;
  worker: string;
  /** The assistant message the cards are in. */
  messageId: string;
  /** The stored history (its excerpt goes on each approval row). */
  history: readonly UIMessage[];
  table: Pick<WorkerTable, 'confirmTools' | 'defaultConfirmTools'>;
  /** Writes a card on the turn's stream. */
  emit: TurnApprovalOptions['emit'];
  /** The turn's cards wait while nobody follows it: save what the stream wrote, then end the model loop. */
  onPark: () => void;
  /** A continuation took this turn's call over (its decision came while it was parked): end the turn. */
  onTakenOver: () => void;
};

/** The approval side of one turn, in one piece. */
export type TurnApprovals = {
  /** Parks the turn when its cards wait unfollowed (see `turn-parking.ts`). */
  parking: TurnParking;
  /** What the approval shell needs (`assembleTurnTools`' `approval`). */
  shell: TurnApprovalOptions;
};

/**
 * Everything a turn asks of approvals: the parking of a turn whose cards wait unfollowed,
 * the durable registry (each card a row, its decision waking the call wherever it waits),
 * the policy, "for this chat" rules and standing grants that say who must decide, the limit on cards waiting,
 * and the preview each card shows.
 */
export function createTurnApprovals(options: TurnApprovalsOptions): TurnApprovals {
  const { db, config, chatId, ownerId, worker, messageId, history, table } = options;
  const parking = createTurnParking({ afterMs: config.TOOLGATE_PARK_AFTER_MS, onPark: options.onPark });
  const registry = createDurableApprovalRegistry({
    db,
    registry: getApprovalRegistry(),
    worker,
    messageId,
    excerpt: excerptOf(history),
    preview: (call) => computeToolPreview(db, { ...call, context: { userId: ownerId, chatId } }),
    onTakenOver: options.onTakenOver,
    parking,
  });
  return {
    parking,
    shell: {
      confirmTools: table.confirmTools,
      registry,
      emit: options.emit,
      timeoutMs: config.AGENT_CONFIRM_TIMEOUT_MS,
      afterExecute: async ({ approvalId, ok, output }) => {
        await recordExecution(db, approvalId, ok);
        // A request that waited for someone else ran while its turn was still live (the
        // requester's page follows it): the requester is mailed the outcome all the same.
        if (approvalId !== undefined)
          await approvalNotices().requesterTold(
            db,
            approvalId,
            ok ? { kind: 'executed', output } : { kind: 'failed' },
            {
              notice: false,
            },
          );
      },
      approvedByRule: approvedByRuleOrGrant(db, { chatId, ownerId }),
      pendingLimiter: createPendingApprovalLimiter(db, config.TOOLGATE_MAX_PENDING_APPROVALS),
      askFor: policyAsk(table.defaultConfirmTools, { db, requesterId: ownerId, chatId }),
      precondition: (toolName, input) =>
        checkToolPrecondition(db, { toolName, input, context: { userId: ownerId, chatId } }),
    },
  };
}
