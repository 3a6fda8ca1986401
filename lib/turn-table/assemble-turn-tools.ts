import type { ApprovalRegistry, ApprovalRequestEvent, IdempotencyStore } from '@toolgate/engine';
import {
  type ApprovalShellOptions,
  type CallProvenance,
  composeToolShells,
  createToolCallTracing,
  type ProvenanceLedger,
  type ToolShell,
  wrapToolsRefusingTaint,
  wrapToolsWithApproval,
  wrapToolsWithAudit,
  wrapToolsWithErrorReferences,
  wrapToolsWithIdempotency,
  wrapToolsWithOutputRecording,
  wrapToolsWithRateLimit,
} from '@toolgate/engine';
import { isTainted } from '@toolgate/engine/provenance';
import {
  type ApprovalDecisionEvent,
  type EffectRecorder,
  type IdempotencyReplayEvent,
  type ProvenanceCheck,
  spendOrRefuse,
  type ToolRateLimiter,
} from '@toolgate/engine/shells';
import { currentToolCall } from '@toolgate/engine/telemetry';
import type { ToolSet } from 'ai';
import type { NewAuditRow } from '@/lib/db/audit';
import { observeApprovalWait } from '@/lib/telemetry/metrics';
import { writeToolNames } from '@/lib/tools/tool-catalog';
import { summarizeToolCall } from '@/lib/tools/tool-summaries';

/** What the approval shell needs; only the streaming endpoint can show a card. */
export type TurnApprovalOptions = {
  /** Tools that wait for a person; empty turns approvals off. */
  confirmTools: ReadonlySet<string>;
  registry: ApprovalRegistry;
  /** Shows an approval request to the person (the stream writes a card). */
  emit: (event: ApprovalRequestEvent) => void | Promise<void>;
  timeoutMs: number;
  /** Told once an approved call has run (see `wrapToolsWithApproval`). */
  afterExecute?: ApprovalShellOptions['afterExecute'];
  /** Whether the user allowed a tool for this chat (no card then). */
  approvedByRule?: ApprovalShellOptions['approvedByRule'];
  /** Refuses a call that would show a card while the user already has too many waiting. */
  pendingLimiter?: ToolRateLimiter;
  /** What each call needs (the approval policy); absent: every call of `confirmTools` asks its requester. */
  askFor?: ApprovalShellOptions['askFor'];
  /** The tools' own checks, run before any card (see `wrapToolsWithApproval`). */
  precondition?: ApprovalShellOptions['precondition'];
};

/** Everything one turn needs to harden its worker's tool table. */
export type AssembleTurnToolsOptions = {
  /** The worker's own table; nothing outside it can be called. */
  baseTools: ToolSet;
  /** The worker the table belongs to, as the audit log names it. */
  worker: string;
  /**
   * The chat id. This is where the app meets the engine's names: the chat id is the
   * idempotency shell's `scope` and the approval shell's `sessionId`.
   */
  chatId: string;
  /** The user who owns the chat: only they may decide its approvals; their tool budget and idempotency window. */
  ownerId: string;
  /** Absent: no approval shell (the non-streaming endpoint). */
  approval?: TurnApprovalOptions;
  store: IdempotencyStore;
  /** Records each built-in write's result in the write's own transaction (see `wrapToolsWithIdempotency`). */
  effects?: EffectRecorder;
  /** Tools the idempotency shell guards (the table's `writeTools`); default the built-in write tools. */
  writeTools?: Iterable<string>;
  /** Writes one audit row per tool call; absent: no audit shell. */
  audit?: (row: NewAuditRow) => void;
  /** The per-chat tool-call budget; absent (`AGENT_TOOL_RATE_LIMIT` unset): no limit. */
  rateLimiter?: ToolRateLimiter;
  /** The turn's own signal (Stop); never the request's: a closed tab is not a decision. */
  signal?: AbortSignal;
  onReplay?: (event: IdempotencyReplayEvent) => void;
  /**
   * Traces where the values of write calls came from (absent: `TOOLGATE_PROVENANCE=off`). The
   * ledger holds the saved history; this turn's outputs are added to it as they come. A
   * tainted call of `tools` waits for a person (refused where none can be asked).
   */
  provenance?: { ledger: ProvenanceLedger; tools: ReadonlySet<string> };
  /** What a continuation knows of its call's provenance (from the approval row), for the audit. */
  knownProvenance?: { toolCallId: string; provenance: CallProvenance };
};

/**
 * Wraps a worker's table in the turn's shells. The list order is the interception
 * order (docs/decisions/2026-11-30-shell-order.md):
 *
 * 1. audit, outermost, so it records every outcome, the other shells' refusals included;
 * 2. error references, so what any inner shell or the tool throws reaches the model
 *    and the user as a short text with a reference id, the details only in the log;
 * 3. rate limit, before approval, so a flood of calls cannot flood a person with cards;
 * 4. approval, outside idempotency, so a denied call never reaches the cache;
 * 5. idempotency, innermost, next to the tool.
 *
 * Tracing observes and changes nothing: its `tool.call` span opens outside them all, so
 * it ends after the audit shell has recorded the outcome, and its probes between the
 * shells mark their work on it (the engine's shells/wrap-tools-with-tracing.ts).
 */
export function assembleTurnTools({
  baseTools,
  worker,
  chatId,
  ownerId,
  approval,
  store,
  effects,
  writeTools,
  audit,
  rateLimiter,
  signal,
  onReplay,
  provenance,
  knownProvenance,
}: AssembleTurnToolsOptions): ToolSet {
  // The audit shell cannot see a replay (the result is the same on purpose); the
  // idempotency shell reports it here, per turn, by tool call id.
  const replayedCallIds = new Set<string>();
  // Likewise what a person decided beyond allow / deny (a rule, an edit, a note).
  const decisionsByCallId = new Map<string, ApprovalDecisionEvent>();
  // And where a write call's values came from (names and ids only, never values).
  const provenanceByCallId = new Map<string, CallProvenance>();
  if (knownProvenance !== undefined && audit !== undefined)
    provenanceByCallId.set(knownProvenance.toolCallId, knownProvenance.provenance);
  const check: ProvenanceCheck | undefined =
    provenance === undefined
      ? undefined
      : {
          tools: provenance.tools,
          assess: (_toolName, input) => provenance.ledger.assess(input),
          onAssessed: (toolCallId, traced) => {
            if (audit !== undefined && isTainted(traced)) provenanceByCallId.set(toolCallId, traced);
            markSpan(traced);
          },
        };
  const shells: ToolShell[] = [];
  // Traces and metrics: one span per call outermost, its probes between the shells below.
  const tracing = createToolCallTracing({
    scope: chatId,
    confirmTools: approval?.confirmTools ?? [],
    writeTools: writeTools ?? writeToolNames,
    rateLimited: rateLimiter !== undefined,
    onApprovalWait: observeApprovalWait,
  });
  shells.push(tracing.call);
  if (provenance !== undefined) {
    // What the model reads (denials and error references included) joins the ledger.
    shells.push((table) =>
      wrapToolsWithOutputRecording(table, (toolName, toolCallId, output) =>
        provenance.ledger.addToolOutput(toolName, toolCallId, output),
      ),
    );
  }
  if (audit !== undefined) {
    shells.push((table) =>
      wrapToolsWithAudit(table, {
        record: audit,
        chatId,
        worker,
        replayedCallIds,
        decisionsByCallId,
        provenanceByCallId,
        summarize: summarizeToolCall,
      }),
    );
  }
  shells.push((table) => wrapToolsWithErrorReferences(table));
  if (rateLimiter !== undefined) {
    // Per user, across chats: a new chat id per request must not reset the budget.
    shells.push((table) => wrapToolsWithRateLimit(table, { limiter: rateLimiter, key: ownerId }));
  }
  shells.push(tracing.beforeApproval);
  if (approval !== undefined && (approval.confirmTools.size > 0 || (provenance?.tools.size ?? 0) > 0)) {
    const { confirmTools, registry, emit, timeoutMs, afterExecute, approvedByRule, pendingLimiter, askFor } =
      approval;
    const { precondition } = approval;
    if (pendingLimiter !== undefined) {
      shells.push((table) =>
        wrapToolsWithRateLimit(table, { limiter: pendingLimiter, key: ownerId, tools: confirmTools }),
      );
    }
    shells.push((table) =>
      wrapToolsWithApproval(table, confirmTools, {
        registry,
        sessionId: chatId,
        ownerId,
        emit,
        timeoutMs,
        signal,
        afterExecute,
        approvedByRule,
        askFor,
        precondition,
        ...(check !== undefined && { provenance: check }),
        ...(pendingLimiter !== undefined && {
          // Cards an outsider's values forced count against the same cap as any other.
          refuseTaintCard: (toolName: string) => spendOrRefuse(pendingLimiter, ownerId, toolName),
        }),
        onDecision: (event) => {
          if (audit !== undefined) decisionsByCallId.set(event.toolCallId, event);
        },
      }),
    );
  } else if (check !== undefined && approval === undefined) {
    // Nobody can be asked here: a tainted write is refused, never run unseen.
    shells.push((table) => wrapToolsRefusingTaint(table, check));
  }
  shells.push(tracing.beforeIdempotency);
  shells.push((table) =>
    wrapToolsWithIdempotency(table, store, {
      scope: chatId,
      partition: ownerId,
      tools: writeTools ?? writeToolNames,
      effects,
      onReplay: (event) => {
        if (audit !== undefined) replayedCallIds.add(event.toolCallId);
        onReplay?.(event);
      },
    }),
  );
  shells.push(tracing.beforeTool);
  return composeToolShells(baseTools, shells);
}

/** Marks the call's `tool.call` span with its taint: paths and the tools behind them, never values. */
function markSpan(traced: CallProvenance): void {
  const call = currentToolCall();
  const tainted = isTainted(traced);
  // A tainted call waits for a person even when its tool never asks: its wait is traced as one.
  if (tainted && call !== undefined && call.approval === undefined) {
    call.approval = { startedAt: Date.now() };
    call.event('approval.requested');
  }
  const span = call?.span;
  if (span === undefined) return;
  span.setAttribute('toolgate.tainted', tainted);
  if (!tainted) return;
  const tools = new Set<string>();
  for (const path of traced.tainted)
    for (const source of traced.provenance[path] ?? [])
      if (source.source === 'tool' && !source.trusted) tools.add(source.tool);
  span.setAttribute('toolgate.tainted.paths', traced.tainted);
  span.setAttribute('toolgate.tainted.sources', [...tools]);
  if (traced.context !== undefined)
    span.setAttribute(
      'toolgate.tainted.context',
      traced.context.map((read) => read.tool),
    );
}
