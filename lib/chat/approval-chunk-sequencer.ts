import type { UIMessageChunk } from 'ai';
import type { ApprovalRequestEvent } from '@/lib/stores';

/** What the page needs to draw the countdown on the approval card. */
export type ApprovalDescriptor = { expiresAt: number; timeoutMs: number; toolName: string };

/**
 * Places each `tool-approval-request` chunk right after its call's
 * `tool-input-available` chunk.
 *
 * The approval shell emits from inside `execute`, which in practice runs after the
 * SDK has written the tool input, but nothing guarantees it. A request that reaches
 * the client before its tool part exists makes the client throw, so the order is
 * enforced here instead of trusted: a request for a call whose input has not passed
 * yet is held until it does.
 */
export function createApprovalChunkSequencer({ timeoutMs }: { timeoutMs: number }) {
  const inputSeen = new Set<string>();
  const held = new Map<string, UIMessageChunk>();
  let controller: TransformStreamDefaultController<UIMessageChunk> | undefined;
  let closed = false;

  const transform = new TransformStream<UIMessageChunk, UIMessageChunk>({
    start(streamController) {
      controller = streamController;
    },
    transform(chunk, streamController) {
      streamController.enqueue(chunk);
      if (chunk.type !== 'tool-input-available') return;
      inputSeen.add(chunk.toolCallId);
      const request = held.get(chunk.toolCallId);
      if (request !== undefined) {
        held.delete(chunk.toolCallId);
        streamController.enqueue(request);
      }
    },
    flush() {
      closed = true;
    },
  });

  /** The `emit` handed to the approval shell. */
  function emit(event: ApprovalRequestEvent): void {
    if (closed) throw new Error('The response stream has closed; the approval request cannot be shown.');
    const descriptor: ApprovalDescriptor = {
      expiresAt: event.expiresAt,
      timeoutMs,
      toolName: event.toolName,
    };
    const chunk: UIMessageChunk = {
      type: 'tool-approval-request',
      approvalId: event.approvalId,
      toolCallId: event.toolCallId,
      approvalDescriptor: descriptor,
    };
    if (inputSeen.has(event.toolCallId) && controller !== undefined) controller.enqueue(chunk);
    else held.set(event.toolCallId, chunk);
  }

  return { transform, emit };
}
