import 'server-only';
import type { ApprovalRegistry, CallProvenance } from '@toolgate/engine';
import type { ApprovalDecision } from '@toolgate/engine/stores';
import type { UIMessage } from 'ai';
import type { Db } from '@/lib/db/engine';
import type { TurnApprovalOptions } from '@/lib/turn-table/assemble-turn-tools';
import type { WorkerTable } from '@/lib/turn-table/build-worker-table';
import { publishApprovalChange } from './approval-events';
import { finishExecution, takeParkedDecision } from './approval-life-cycle';
import { type ApprovalEnd, mapToolPart, settleApprovalPart } from './approval-parts';
import { policyAsk } from './approval-policy';
import { type ApprovalRecord, decisionRecordOf, listChatApprovals } from './approval-rows';
import { type DeniedStatus, deniedStatuses, isDeniedStatus } from './approval-states';
import { auditApprovalEnd } from './audit-approval-end';
import { endOfRow } from './settle-approvals';

/** The claimed call, as its turn asked it. */
export type ParkedCallFacts = {
  approvalId: string;
  chatId: string;
  /** The user who owns the chat and asked for the call. */
  ownerId: string;
  worker: string;
  /** The assistant message the card is in. */
  messageId: string;
  toolCallId: string;
  toolName: string;
  /** The input the model gave (the shell swaps in the person's edit, as in a live turn). */
  input: unknown;
  /** The `traceparent` of the tool call that asked, when it was traced. */
  traceParent?: string;
  /** Where the call's values came from, when it was traced. */
  provenance?: CallProvenance;
  /** When the card was first shown (ISO 8601). */
  createdAt: string;
};

/** How a run of the allowed call ended. */
export type ParkedRun = { output: unknown } | { error: unknown };

/**
 * A decided call whose turn is gone, claimed by the one continuation that carries it out:
 * the approval side of it. The caller runs the call (allowed) or hands the model the denial,
 * and continues the turn.
 */
export type ParkedCall = {
  call: ParkedCallFacts;
  /** The saved `message` with this call's card settled as `end`; an output also gets `outputMetadata`. */
  settle(message: UIMessage, end: ApprovalEnd, outputMetadata?: Record<string, unknown>): UIMessage;
  /**
   * Whether the model should reply now: a person answered (an allow or a "no", not the deadline
   * or Stop) and no other card of the same message still waits or waits to be carried out.
   */
  replyDue(): Promise<boolean>;
  /** Tells every page that follows the chat or the approval that it changed. */
  announce(): void;
} & (
  | {
      approved: true;
      /** The approval shell of a live turn, answered from the row (the person's edit, who decided). */
      approvalShell(table: Pick<WorkerTable, 'defaultConfirmTools'>): Promise<TurnApprovalOptions>;
      /** Records how the run ended (`executed` or `failed`) and gives the end its card shows. */
      finish(run: ParkedRun): Promise<ApprovalEnd>;
    }
  | {
      approved: false;
      /** Audits the call's end and gives the denial the model reads. */
      deny(): Promise<ApprovalEnd>;
    }
);

/**
 * Claims the decision on a parked call (compare-and-set): of all instances and requests
 * that try, one gets the call and the rest get undefined, as do unknown and undecided ids.
 */
export async function takeParkedCall(db: Db, approvalId: string): Promise<ParkedCall | undefined> {
  const taken = await takeParkedDecision(db, approvalId);
  if (taken === undefined) return undefined;
  const { row, approved } = taken;
  const common = {
    call: factsOf(row),
    settle: (message: UIMessage, end: ApprovalEnd, outputMetadata?: Record<string, unknown>) =>
      mapToolPart(message, row.toolCallId, (part) => {
        const ended = settleApprovalPart(part, row.id, end);
        if (ended.state !== 'output-available' || outputMetadata === undefined) return ended;
        return { ...ended, toolMetadata: { ...ended.toolMetadata, ...outputMetadata } } as typeof ended;
      }),
    // Only a person's answer earns a reply; any other end just settles the card.
    replyDue: async () => (approved || row.status === 'denied') && !(await othersUnsettled(db, row)),
    announce: () => publishApprovalChange(db, row),
  };
  if (!approved) {
    return {
      ...common,
      approved,
      deny: async () => {
        await auditApprovalEnd(db, row, row.status as DeniedStatus);
        const { decidedBy } = await decisionRecordOf(db, row);
        return endOfRow(row, decidedBy) as ApprovalEnd;
      },
    };
  }
  return {
    ...common,
    approved,
    approvalShell: async (table) => approvalShellOf(db, row, table, await decisionRecordOf(db, row)),
    finish: async (run) => {
      await finishExecution(db, row.id, 'output' in run);
      return 'output' in run
        ? { kind: 'output', output: run.output }
        : { kind: 'error', errorText: run.error instanceof Error ? run.error.message : String(run.error) };
    },
  };
}

function factsOf(row: ApprovalRecord): ParkedCallFacts {
  return {
    approvalId: row.id,
    chatId: row.chatId,
    // Every approval row is written with its owner; one without (none exist) belongs to nobody.
    ownerId: row.ownerId ?? '',
    worker: row.worker,
    messageId: row.messageId,
    toolCallId: row.toolCallId,
    toolName: row.toolName,
    input: row.input,
    ...(row.traceParent !== undefined && { traceParent: row.traceParent }),
    ...(row.provenance !== undefined && { provenance: row.provenance }),
    createdAt: row.createdAt,
  };
}

/**
 * The same approval shell as a live turn, answered from the row: the person's edit reaches
 * the tool, the idempotency key and the model the same way.
 */
function approvalShellOf(
  db: Db,
  row: ApprovalRecord,
  table: Pick<WorkerTable, 'defaultConfirmTools'>,
  decided: Awaited<ReturnType<typeof decisionRecordOf>>,
): TurnApprovalOptions {
  const ownerId = row.ownerId ?? '';
  return {
    confirmTools: new Set([row.toolName]),
    registry: decidedRegistry({
      approved: true,
      approvalId: row.id,
      ...(row.editedInput !== undefined && { input: row.editedInput }),
      ...decided,
    }),
    emit: () => undefined,
    timeoutMs: 1,
    // A rule's quota is counted when the call runs, here as in a live turn.
    askFor: async (toolName, input, facts) => {
      const ask = await policyAsk(table.defaultConfirmTools, {
        db,
        requesterId: ownerId,
        chatId: row.chatId,
      })(toolName, input, facts);
      return ask.kind === 'deny'
        ? ask
        : { kind: 'confirm', ...(ask.quota !== undefined && { quota: ask.quota }) };
    },
  };
}

/** A registry that answers every call with a decision already taken (and read from the row). */
function decidedRegistry(decision: ApprovalDecision): ApprovalRegistry {
  return {
    confirm: (async () => decision) as ApprovalRegistry['confirm'],
    resolve: () => false,
    extend: () => false,
    closeSession: () => 0,
  };
}

/** Whether another card of the same message is still waiting, or decided but not yet carried out. */
async function othersUnsettled(db: Db, row: ApprovalRecord): Promise<boolean> {
  const rows = await listChatApprovals(db, row.chatId, [
    'pending',
    'approved',
    'executing',
    ...deniedStatuses,
  ]);
  return rows.some(
    (other) =>
      other.id !== row.id &&
      other.messageId === row.messageId &&
      !(isDeniedStatus(other.status) && other.claimed),
  );
}
