import type { ApprovalRequestEvent, CallProvenance } from '@toolgate/engine';
import { isToolDenial, revealHiddenInSummary } from '@toolgate/engine/client';
import type { ToolTrust } from '@toolgate/engine/provenance';
import { inputDigestOf } from '@toolgate/engine/shells';
import type { ApprovalPreview, ApprovalStep } from '@toolgate/engine/stores';
import type { DynamicToolUIPart, ToolUIPart, UIMessage, UIMessageChunk } from 'ai';
import { denialReasonText, settleApprovalPart } from '@/lib/approvals';
import type { Language } from '@/lib/shared/language';
import { summarizeToolCall } from '@/lib/tools/tool-summaries';

/** What the page needs to draw the approval card: its title and its countdown. */
export type ApprovalDescriptor = {
  expiresAt: number;
  timeoutMs: number;
  toolName: string;
  /** The tool's one-line summary of this call, in each language (absent for tools without one). */
  summary?: Record<Language, string>;
  /**
   * Who must allow the call, when that is someone other than the requester alone (a policy's
   * role steps): the card then reads `GET /api/approvals/:id` and follows its changes.
   */
  steps?: readonly ApprovalStep[];
  /** The tool's preview of the call, in every language, when it declares one (shown above the arguments). */
  preview?: ApprovalPreview;
  /** `inputDigestOf` the input the card shows: sent back with the decision, which is refused if the input changed. */
  inputDigest: string;
  /** Where the call's values came from, when traced: the card marks the fields an untrusted output supplied. */
  provenance?: CallProvenance;
};

/**
 * What the shells tell the UI beside the model's own stream: approval requests
 * and replays.
 *
 * An approval request becomes a native `tool-approval-request` chunk placed right
 * after its call's `tool-input-available` chunk. The approval shell emits from
 * inside `execute`, which in practice runs after the SDK has written the tool
 * input, but nothing guarantees it, and a request that reaches the client before
 * its tool part exists makes the client throw; so the order is enforced here: a
 * request for a call whose input has not passed yet is held until it does.
 *
 * A replay (the idempotency shell answered from its window) is marked on the
 * call's `tool-output-available` chunk as `toolMetadata.replayed`.
 *
 * Once a call that asked has an answer, the native `tool-approval-response`
 * chunk goes first; a denial then ends the part the SDK's way (`tool-output-denied`,
 * the explanation as the approval's reason) instead of as an output, so every
 * message built from the stream passes the SDK's `validateUIMessages`.
 *
 * `onApprovalShown` receives the chunks written so far each time a card is shown,
 * so the message up to the card can be saved as it happens.
 *
 * The transform runs after the SDK has built the message it persists, so
 * `annotate` adds the same facts to that message before it is saved.
 */
/** The side channel of one turn (`createTurnSideChannel`). */
export type TurnSideChannel = ReturnType<typeof createTurnSideChannel>;

export function createTurnSideChannel({
  timeoutMs,
  onApprovalShown,
  trustOf,
}: {
  timeoutMs: number;
  onApprovalShown?: (chunksSoFar: readonly UIMessageChunk[]) => void;
  /** Labels each output `toolMetadata.trust`, so a later turn (on any instance) reads the label it had. */
  trustOf?: (toolName: string) => ToolTrust;
}) {
  const written: UIMessageChunk[] = [];
  const inputSeen = new Set<string>();
  const held = new Map<string, UIMessageChunk>();
  const approvalByCallId = new Map<string, { id: string; descriptor: ApprovalDescriptor }>();
  const replayedCallIds = new Set<string>();
  const toolNameByCallId = new Map<string, string>();
  let controller: TransformStreamDefaultController<UIMessageChunk> | undefined;
  let closed = false;

  const transform = new TransformStream<UIMessageChunk, UIMessageChunk>({
    start(streamController) {
      controller = streamController;
    },
    transform(chunk, streamController) {
      const enqueue = (out: UIMessageChunk) => {
        if (onApprovalShown !== undefined) written.push(out);
        streamController.enqueue(out);
      };
      if (chunk.type === 'tool-output-available' || chunk.type === 'tool-output-error') {
        const approval = approvalByCallId.get(chunk.toolCallId);
        if (approval !== undefined) {
          const denial =
            chunk.type === 'tool-output-available' && isToolDenial(chunk.output) ? chunk.output : undefined;
          enqueue({
            type: 'tool-approval-response',
            approvalId: approval.id,
            approved: denial === undefined,
            ...(denial !== undefined && { reason: denialReasonText(denial) }),
          });
          if (denial !== undefined) {
            enqueue({ type: 'tool-output-denied', toolCallId: chunk.toolCallId });
            return;
          }
        }
      }
      if (chunk.type === 'tool-input-start' || chunk.type === 'tool-input-available')
        toolNameByCallId.set(chunk.toolCallId, chunk.toolName);
      if (chunk.type === 'tool-output-available') {
        const replayed = replayedCallIds.has(chunk.toolCallId);
        const toolName = toolNameByCallId.get(chunk.toolCallId);
        const trust = trustOf !== undefined && toolName !== undefined ? trustOf(toolName) : undefined;
        if (replayed || trust !== undefined) {
          enqueue({
            ...chunk,
            toolMetadata: {
              ...chunk.toolMetadata,
              ...(replayed && { replayed: true }),
              ...(trust !== undefined && { trust }),
            },
          });
          return;
        }
      }
      enqueue(chunk);
      if (chunk.type !== 'tool-input-available') return;
      inputSeen.add(chunk.toolCallId);
      const request = held.get(chunk.toolCallId);
      if (request !== undefined) {
        held.delete(chunk.toolCallId);
        enqueue(request);
        onApprovalShown?.(written);
      }
    },
    flush() {
      closed = true;
    },
  });

  /** The `emit` handed to the approval shell; throwing (stream closed) makes the shell deny. */
  function emitApprovalRequest(event: ApprovalRequestEvent): void {
    if (closed) throw new Error('The response stream has closed; the approval request cannot be shown.');
    const descriptor: ApprovalDescriptor = {
      expiresAt: event.expiresAt,
      // A policy rule may set its own deadline: the time left is what the row says.
      timeoutMs: event.steps === undefined ? timeoutMs : Math.max(0, event.expiresAt - Date.now()),
      toolName: event.toolName,
      inputDigest: inputDigestOf(event.input),
      ...(event.steps?.some((step) => step.kind === 'role') && { steps: event.steps }),
      ...(event.preview !== undefined && { preview: event.preview }),
      ...(event.provenance !== undefined && { provenance: event.provenance }),
    };
    // The preview's title when it has one: it names what the input left out (a refund's currency).
    const summary =
      (event.preview?.summary as Record<Language, string> | undefined) ??
      summarizeToolCall(event.toolName, event.input);
    // Shown on the card and in a desktop notification: hidden characters as code points.
    if (summary !== undefined) descriptor.summary = revealHiddenInSummary(summary);
    approvalByCallId.set(event.toolCallId, { id: event.approvalId, descriptor });
    const chunk: UIMessageChunk = {
      type: 'tool-approval-request',
      approvalId: event.approvalId,
      toolCallId: event.toolCallId,
      approvalDescriptor: descriptor,
    };
    if (inputSeen.has(event.toolCallId) && controller !== undefined) {
      if (onApprovalShown !== undefined) written.push(chunk);
      controller.enqueue(chunk);
      onApprovalShown?.(written);
    } else held.set(event.toolCallId, chunk);
  }

  /** The idempotency shell's `onReplay`. */
  function markReplay({ toolCallId }: { toolCallId: string }): void {
    replayedCallIds.add(toolCallId);
  }

  function annotatePart(part: ToolUIPart | DynamicToolUIPart): ToolUIPart | DynamicToolUIPart {
    const approval = approvalByCallId.get(part.toolCallId);
    const replayed = replayedCallIds.has(part.toolCallId);
    const toolName = part.type === 'dynamic-tool' ? part.toolName : part.type.slice('tool-'.length);
    const trust = trustOf !== undefined && part.state === 'output-available' ? trustOf(toolName) : undefined;
    if (approval === undefined && !replayed && trust === undefined) return part;
    let annotated = {
      ...part,
      ...(approval !== undefined && { approval: { ...part.approval, ...approval } }),
      ...((replayed || trust !== undefined) && {
        toolMetadata: {
          ...part.toolMetadata,
          ...(replayed && { replayed: true }),
          ...(trust !== undefined && { trust }),
        },
      }),
    } as typeof part;
    if (approval === undefined) return annotated;
    // The same ends the stream wrote (approval response, then output or denial).
    if (annotated.state === 'output-available') {
      const output: unknown = annotated.output;
      annotated = settleApprovalPart(
        annotated,
        approval.id,
        isToolDenial(output)
          ? { kind: 'denied', reason: output.reason, message: output.message }
          : { kind: 'output', output },
      );
    } else if (annotated.state === 'output-error') {
      annotated = settleApprovalPart(annotated, approval.id, {
        kind: 'error',
        errorText: annotated.errorText,
      });
    }
    return annotated;
  }

  /** The message the SDK built, with the approvals and replays this turn streamed. */
  function annotate(message: UIMessage): UIMessage {
    return {
      ...message,
      parts: message.parts.map((part) => ('toolCallId' in part ? annotatePart(part) : part)),
    };
  }

  /** The chunks written so far (kept only when `onApprovalShown` is given). */
  const chunksSoFar = (): readonly UIMessageChunk[] => [...written];

  return { transform, emitApprovalRequest, markReplay, annotate, chunksSoFar };
}
