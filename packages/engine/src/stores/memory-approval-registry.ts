import type { DenialReason } from '../decisions/decision-vocabulary';
import {
  type ApprovalDecision,
  type ApprovalRegistry,
  type ApprovalRequest,
  type ConfirmOptions,
  confirmOptionsOf,
  emitApprovalRequest,
} from './approval-registry';

/** Options of {@link createMemoryApprovalRegistry}. */
export type MemoryApprovalRegistryOptions = {
  /** The clock for `expiresAt`, in epoch milliseconds. Default `Date.now`. */
  now?: () => number;
  /** Makes approval ids. Default `crypto.randomUUID` (122 random bits): ids must be unguessable. */
  generateId?: () => string;
};

/** The in-process registry, plus `pendingCount()` for tests and benchmarks. */
export type MemoryApprovalRegistry = ApprovalRegistry & {
  /** Number of calls waiting for a decision. */
  pendingCount(): number;
};

type Pending = {
  sessionId: string;
  ownerId?: string;
  settle: (decision: ApprovalDecision) => void;
  /** Re-arms the timeout for a new deadline. */
  extendTo: (expiresAt: number) => void;
};

/**
 * An approval registry held in one process (the default without Redis).
 *
 * A pending call is a Map entry whose `settle` resolves the waiting promise.
 * Every path (decision, timeout, abort, closed session, failed emit) goes
 * through `settle`, which removes the entry, clears the timer and drops the
 * abort listener, so nothing outlives the call. A pending call holds only its
 * session, owner and `settle`; the input is handed to `emit` and not kept.
 */
export function createMemoryApprovalRegistry({
  now = Date.now,
  generateId = () => crypto.randomUUID(),
}: MemoryApprovalRegistryOptions = {}): MemoryApprovalRegistry {
  const pendingById = new Map<string, Pending>();

  function confirm(
    request: ApprovalRequest,
    emitOrOptions: ConfirmOptions | ConfirmOptions['emit'],
    positionalTimeoutMs?: number,
    positionalSignal?: AbortSignal,
  ): Promise<ApprovalDecision> {
    let options: ConfirmOptions;
    try {
      options = confirmOptionsOf(emitOrOptions, positionalTimeoutMs, positionalSignal);
    } catch (error) {
      return Promise.reject(error);
    }
    const { emit, timeoutMs, signal } = options;
    // The client is already gone: nobody could answer, so do not show a card.
    if (signal?.aborted) return Promise.resolve(denial('aborted'));

    const approvalId = generateId();
    const expiresAt = now() + timeoutMs;
    if (pendingById.has(approvalId)) {
      return Promise.reject(new Error('generateId returned an approval id that is still pending'));
    }
    return new Promise<ApprovalDecision>((finish) => {
      const onAbort = () => settle(denial('aborted'));
      let timer = setTimeout(() => settle(denial('timeout')), timeoutMs);
      function extendTo(nextExpiresAt: number) {
        clearTimeout(timer);
        const delay = Math.min(maxTimeoutMs, Math.max(0, nextExpiresAt - now()));
        timer = setTimeout(() => settle(denial('timeout')), delay);
      }
      function settle(decision: ApprovalDecision) {
        if (!pendingById.delete(approvalId)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        finish(decision);
      }
      pendingById.set(approvalId, {
        sessionId: request.sessionId,
        ownerId: request.ownerId,
        settle,
        extendTo,
      });
      signal?.addEventListener('abort', onAbort, { once: true });

      // `aborted` fits a failed emit best: the request never reached the person.
      emitApprovalRequest(emit, request, { approvalId, expiresAt }, () => settle(denial('aborted')));
    });
  }

  function resolve(approvalId: string, sessionId: string, approved: boolean, ownerId?: string): boolean {
    const pending = pendingById.get(approvalId);
    // A mismatch answers exactly like an unknown id, so ids cannot be probed across sessions.
    if (pending === undefined || pending.sessionId !== sessionId) return false;
    if (pending.ownerId !== undefined && pending.ownerId !== ownerId) return false;
    pending.settle(approved === true ? { approved: true } : denial('denied'));
    return true;
  }

  function extend(approvalId: string, sessionId: string, expiresAt: number, ownerId?: string): boolean {
    const pending = pendingById.get(approvalId);
    if (pending === undefined || pending.sessionId !== sessionId) return false;
    if (pending.ownerId !== undefined && pending.ownerId !== ownerId) return false;
    pending.extendTo(expiresAt);
    return true;
  }

  function closeSession(sessionId: string): number {
    let closed = 0;
    for (const pending of [...pendingById.values()]) {
      if (pending.sessionId !== sessionId) continue;
      pending.settle(denial('closed'));
      closed += 1;
    }
    return closed;
  }

  return { confirm, resolve, closeSession, extend, pendingCount: () => pendingById.size };
}

// setTimeout's limit: a longer delay fires at once.
const maxTimeoutMs = 2 ** 31 - 1;

function denial(reason: DenialReason): ApprovalDecision {
  return { approved: false, reason };
}
