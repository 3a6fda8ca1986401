import type { ToolSet } from 'ai';
import {
  composeToolShells,
  type ToolShell,
  wrapToolsWithApproval,
  wrapToolsWithIdempotency,
} from '@/lib/shells';
import type { ApprovalRegistry, ApprovalRequestEvent, IdempotencyStore } from '@/lib/stores';

/** Everything one turn needs to harden its worker's tool table. */
export type AssembleTurnToolsOptions = {
  /** The worker's own table; nothing outside it can be called. */
  baseTools: ToolSet;
  /** The chat id: the idempotency scope and the approval session. */
  sessionId: string;
  /** The browser that owns the chat, when known; only it may decide its approvals. */
  ownerId?: string;
  /** Tools that wait for a person; empty turns approvals off. */
  confirmTools: ReadonlySet<string>;
  registry: ApprovalRegistry;
  store: IdempotencyStore;
  /** Shows an approval request to the person (the stream writes a card). */
  emit: (event: ApprovalRequestEvent) => void;
  timeoutMs: number;
  /** The request's abort signal: a closed tab denies with `aborted`. */
  signal?: AbortSignal;
  onReplay?: (event: { toolCallId: string; toolName: string; scope: string }) => void;
};

/**
 * Wraps a worker's table in the turn's shells. The list order is the interception
 * order: approval first (outermost), idempotency inside it, so a call the user
 * denied never reaches the cache and a later allowed identical call still runs.
 */
export function assembleTurnTools({
  baseTools,
  sessionId,
  ownerId,
  confirmTools,
  registry,
  store,
  emit,
  timeoutMs,
  signal,
  onReplay,
}: AssembleTurnToolsOptions): ToolSet {
  const shells: ToolShell[] = [];
  if (confirmTools.size > 0) {
    shells.push((table) =>
      wrapToolsWithApproval(table, confirmTools, { registry, sessionId, ownerId, emit, timeoutMs, signal }),
    );
  }
  shells.push((table) => wrapToolsWithIdempotency(table, store, { scope: sessionId, onReplay }));
  return composeToolShells(baseTools, shells);
}
