import type { UIMessage, UIMessageChunk } from 'ai';
import type { ApprovalRequestEvent } from '@/lib/stores';

/** What the page needs to draw the countdown on the approval card. */
export type ApprovalDescriptor = { expiresAt: number; timeoutMs: number; toolName: string };

type ToolPart = Extract<UIMessage['parts'][number], { toolCallId: string }>;

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
 * The transform runs after the SDK has built the message it persists, so
 * `annotate` adds the same facts to that message before it is saved.
 */
export function createTurnSideChannel({ timeoutMs }: { timeoutMs: number }) {
  const inputSeen = new Set<string>();
  const held = new Map<string, UIMessageChunk>();
  const approvalByCallId = new Map<string, { id: string; descriptor: ApprovalDescriptor }>();
  const replayedCallIds = new Set<string>();
  let controller: TransformStreamDefaultController<UIMessageChunk> | undefined;
  let closed = false;

  const transform = new TransformStream<UIMessageChunk, UIMessageChunk>({
    start(streamController) {
      controller = streamController;
    },
    transform(chunk, streamController) {
      if (chunk.type === 'tool-output-available' && replayedCallIds.has(chunk.toolCallId)) {
        streamController.enqueue({ ...chunk, toolMetadata: { ...chunk.toolMetadata, replayed: true } });
        return;
      }
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

  /** The `emit` handed to the approval shell; throwing (stream closed) makes the shell deny. */
  function emitApprovalRequest(event: ApprovalRequestEvent): void {
    if (closed) throw new Error('The response stream has closed; the approval request cannot be shown.');
    const descriptor: ApprovalDescriptor = {
      expiresAt: event.expiresAt,
      timeoutMs,
      toolName: event.toolName,
    };
    approvalByCallId.set(event.toolCallId, { id: event.approvalId, descriptor });
    const chunk: UIMessageChunk = {
      type: 'tool-approval-request',
      approvalId: event.approvalId,
      toolCallId: event.toolCallId,
      approvalDescriptor: descriptor,
    };
    if (inputSeen.has(event.toolCallId) && controller !== undefined) controller.enqueue(chunk);
    else held.set(event.toolCallId, chunk);
  }

  /** The idempotency shell's `onReplay`. */
  function markReplay({ toolCallId }: { toolCallId: string }): void {
    replayedCallIds.add(toolCallId);
  }

  function annotatePart(part: ToolPart): ToolPart {
    const approval = approvalByCallId.get(part.toolCallId);
    const replayed = replayedCallIds.has(part.toolCallId);
    if (approval === undefined && !replayed) return part;
    return {
      ...part,
      ...(approval !== undefined && { approval: { ...part.approval, ...approval } }),
      ...(replayed && { toolMetadata: { ...part.toolMetadata, replayed: true } }),
    } as ToolPart;
  }

  /** The message the SDK built, with the approvals and replays this turn streamed. */
  function annotate(message: UIMessage): UIMessage {
    return {
      ...message,
      parts: message.parts.map((part) => ('toolCallId' in part ? annotatePart(part) : part)),
    };
  }

  return { transform, emitApprovalRequest, markReplay, annotate };
}
