import type { ToolSet } from 'ai';
import type { ApprovalRegistry, ConfirmOptions, DenialReason } from '@/lib/stores/approval-registry';
import { finalOutput, wrapExecute } from './wrap-execute';

/**
 * What a tool returns instead of running when its call was not approved. It is
 * an ordinary result, not an error: the model reads `message`, explains, and
 * stops, instead of retrying with other arguments as it would after an error.
 */
export type ToolDenial = { denied: true; reason: DenialReason; message: string };

/** Tells a {@link ToolDenial} apart from a tool's own output. */
export function isToolDenial(value: unknown): value is ToolDenial {
  if (typeof value !== 'object' || value === null) return false;
  const { denied, reason, message } = value as Partial<ToolDenial>;
  return (
    denied === true && typeof reason === 'string' && reason in messageByReason && typeof message === 'string'
  );
}

const messageByReason: Record<DenialReason, (toolName: string) => string> = {
  denied: (toolName) =>
    `The user declined this ${toolName} call, so nothing was done. Do not retry this call; tell the user it was not carried out.`,
  timeout: (toolName) =>
    `The approval request for this ${toolName} call expired without an answer, so nothing was done. Do not retry this call; tell the user the request expired and they can ask again.`,
  aborted: (toolName) =>
    `The approval request for this ${toolName} call was cancelled before anyone answered, so nothing was done. Do not retry this call.`,
  closed: (toolName) =>
    `The chat was closed while this ${toolName} call waited for approval, so nothing was done. Do not retry this call.`,
  superseded: (toolName) =>
    `The user sent a new message instead of answering the approval request for this ${toolName} call, so nothing was done. Do not retry this call; answer the new message.`,
};

/** The denial the model reads for `reason`. */
export function toolDenial(reason: DenialReason, toolName: string): ToolDenial {
  return { denied: true, reason, message: messageByReason[reason](toolName) };
}

/** Options of {@link wrapToolsWithApproval}. */
export type ApprovalShellOptions = {
  /** Holds the waiting calls; `resolve` on it wakes one. */
  registry: ApprovalRegistry;
  /** Only a decision for this session (the chat id) can wake the call. */
  sessionId: string;
  /** When set, only this owner's decision can wake the call. */
  ownerId?: string;
  /** Sends the approval request to the person (the UI card); a failure denies. */
  emit: ConfirmOptions['emit'];
  /** No decision within this many milliseconds denies with reason `timeout`. */
  timeoutMs: number;
  /** The turn's signal: aborting it (the user pressed Stop) denies with reason `aborted`. */
  signal?: AbortSignal;
  /** Told once an approved call has run (or thrown), so the approval's record can say so. */
  afterExecute?: (event: { approvalId?: string; toolCallId: string; ok: boolean }) => Promise<void> | void;
};

/**
 * Makes the chosen tools wait for a person before they run. The call's execute
 * stays suspended on the registry; on allow the original runs, on anything else
 * a {@link ToolDenial} is returned (never thrown). Only `execute` is replaced.
 *
 * Put this shell outside idempotency, or a denial is cached as the call's result.
 */
export function wrapToolsWithApproval<TOOLS extends ToolSet>(
  table: TOOLS,
  confirmTools: Iterable<string>,
  { registry, sessionId, ownerId, emit, timeoutMs, signal, afterExecute }: ApprovalShellOptions,
): TOOLS {
  return wrapExecute(table, confirmTools, (execute, toolName) => async (input, options) => {
    const decision = await registry.confirm(
      { sessionId, ownerId, toolCallId: options.toolCallId, toolName, input },
      { emit, timeoutMs, signal: eitherSignal(signal, options.abortSignal) },
    );
    if (!decision.approved) return toolDenial(decision.reason, toolName);
    if (afterExecute === undefined) return finalOutput(execute(input, options));
    const event = { approvalId: decision.approvalId, toolCallId: options.toolCallId };
    let output: unknown;
    try {
      output = await finalOutput(execute(input, options));
    } catch (error) {
      await afterExecute({ ...event, ok: false });
      throw error;
    }
    await afterExecute({ ...event, ok: true });
    return output;
  });
}

/** A signal that aborts when either does; `AbortSignal.any` only when there are two. */
function eitherSignal(first?: AbortSignal, second?: AbortSignal): AbortSignal | undefined {
  if (first === undefined || second === undefined) return first ?? second;
  return AbortSignal.any([first, second]);
}
