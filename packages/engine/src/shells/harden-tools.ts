import type { ToolSet } from 'ai';
import type { NewAuditRow } from '../decisions/audit-record';
import type { ApprovalRegistry, ApprovalRequestEvent } from '../stores/approval-registry';
import type { IdempotencyStore } from '../stores/idempotency-store';
import { createMemoryApprovalRegistry } from '../stores/memory-approval-registry';
import { createMemoryIdempotencyStore } from '../stores/memory-idempotency-store';
import { composeToolShells, type ToolShell } from './compose-tool-shells';
import { type ApprovalDecisionEvent, wrapToolsWithApproval } from './wrap-tools-with-approval';
import { wrapToolsWithAudit } from './wrap-tools-with-audit';
import { wrapToolsWithIdempotency } from './wrap-tools-with-idempotency';

/** Options of {@link hardenTools}. */
export type HardenToolsOptions = {
  /** The conversation the calls belong to: only a decision for it wakes a call, and a write runs once per it. */
  chatId: string;
  /** Tools a person must allow before they run; every other tool runs at once. Default: none. */
  confirmTools?: Iterable<string>;
  /** Tools that write: each runs at most once per `chatId` and input. Default: none. */
  writeTools?: Iterable<string>;
  /** Tells the person about a call that waits (the card); decide it with `approvals.resolve`. */
  onApprovalRequest?: (event: ApprovalRequestEvent) => void | Promise<void>;
  /** Where waiting calls are held. Default: a new in-memory registry (one process). */
  approvals?: ApprovalRegistry;
  /** Where write results are remembered. Default: a new in-memory store (one process). */
  idempotency?: IdempotencyStore;
  /** Writes one audit row per call; without it nothing is audited. */
  audit?: (row: NewAuditRow) => void;
  /** The name the audit rows give the table's owner (an agent, a worker). Default `agent`. */
  worker?: string;
  /** No decision within this many milliseconds denies the call with reason `timeout`. Default 5 minutes. */
  approvalTimeoutMs?: number;
  /** The turn's signal: aborting it denies the calls still waiting, with reason `aborted`. */
  signal?: AbortSignal;
};

/**
 * The common case in one call: audit outermost (it sees every outcome), then approval, then
 * idempotency (a denial is never remembered as the call's result), then the tool. For more
 * shells (rate limit, provenance, tracing, error references) compose them with
 * {@link composeToolShells} in the order the engine's documentation gives.
 */
export function hardenTools<TOOLS extends ToolSet>(
  tools: TOOLS,
  {
    chatId,
    confirmTools = [],
    writeTools = [],
    onApprovalRequest = () => undefined,
    approvals = createMemoryApprovalRegistry(),
    idempotency = createMemoryIdempotencyStore(),
    audit,
    worker = 'agent',
    approvalTimeoutMs = 300_000,
    signal,
  }: HardenToolsOptions,
): TOOLS {
  const replayedCallIds = new Set<string>();
  const decisionsByCallId = new Map<string, ApprovalDecisionEvent>();
  const shells: ToolShell<TOOLS>[] = [];
  if (audit !== undefined)
    shells.push((table) =>
      wrapToolsWithAudit(table, { record: audit, chatId, worker, replayedCallIds, decisionsByCallId }),
    );
  shells.push(
    (table) =>
      wrapToolsWithApproval(table, confirmTools, {
        registry: approvals,
        sessionId: chatId,
        emit: onApprovalRequest,
        timeoutMs: approvalTimeoutMs,
        signal,
        onDecision: (event) => decisionsByCallId.set(event.toolCallId, event),
      }),
    (table) =>
      wrapToolsWithIdempotency(table, idempotency, {
        scope: chatId,
        tools: writeTools,
        onReplay: (event) => replayedCallIds.add(event.toolCallId),
      }),
  );
  return composeToolShells(tools, shells);
}
