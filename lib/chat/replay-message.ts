import type { UIMessage, UIMessageChunk } from 'ai';

type AnyPart = Record<string, unknown> & { type: string };

/**
 * The chunks that build `message` from nothing: a client that resumes a stream
 * treats it as a replay from its start (the AI SDK resets its message at the
 * stream's first `start`), so a stream that continues a saved message begins by
 * rebuilding it. Covers the parts turns write: steps, text, reasoning, tool calls
 * in every state (approval, output, error, denial), sources, files and data parts.
 * Ends without `finish`: the continuation follows.
 */
export function replayMessage(message: UIMessage): UIMessageChunk[] {
  const chunks: UIMessageChunk[] = [
    {
      type: 'start',
      messageId: message.id,
      ...(message.metadata !== undefined && { messageMetadata: message.metadata }),
    },
  ];
  let inStep = false;
  message.parts.forEach((raw, index) => {
    const part = raw as unknown as AnyPart;
    const id = `replay-${index}`;
    if (part.type === 'step-start') {
      if (inStep) chunks.push({ type: 'finish-step' });
      chunks.push({ type: 'start-step' });
      inStep = true;
    } else if (part.type === 'text' || part.type === 'reasoning') {
      const kind = part.type;
      chunks.push(
        { type: `${kind}-start`, id } as UIMessageChunk,
        { type: `${kind}-delta`, id, delta: String(part.text ?? '') } as UIMessageChunk,
        { type: `${kind}-end`, id } as UIMessageChunk,
      );
    } else if (part.type === 'dynamic-tool' || part.type.startsWith('tool-')) {
      chunks.push(...replayToolPart(part));
    } else if (part.type === 'source-url' || part.type === 'source-document' || part.type === 'file') {
      chunks.push({ ...part } as unknown as UIMessageChunk);
    } else if (part.type.startsWith('data-')) {
      chunks.push({ type: part.type, id: part.id, data: part.data } as UIMessageChunk);
    }
  });
  if (inStep) chunks.push({ type: 'finish-step' });
  return chunks;
}

function replayToolPart(part: AnyPart): UIMessageChunk[] {
  const toolCallId = String(part.toolCallId);
  const dynamic = part.type === 'dynamic-tool';
  const toolName = dynamic ? String(part.toolName) : part.type.slice('tool-'.length);
  const state = String(part.state);
  const approval = part.approval as
    | { id: string; approved?: boolean; reason?: string; descriptor?: unknown }
    | undefined;
  const chunks: UIMessageChunk[] = [];
  if (state === 'input-streaming') return chunks;
  if (state === 'output-error' && part.input === undefined) {
    return [
      {
        type: 'tool-input-error',
        toolCallId,
        toolName,
        input: part.rawInput,
        errorText: String(part.errorText),
        ...(dynamic && { dynamic }),
      },
    ];
  }
  chunks.push({
    type: 'tool-input-available',
    toolCallId,
    toolName,
    input: part.input,
    ...(dynamic && { dynamic }),
  });
  if (approval !== undefined) {
    chunks.push({
      type: 'tool-approval-request',
      approvalId: approval.id,
      toolCallId,
      ...(approval.descriptor !== undefined && { approvalDescriptor: approval.descriptor }),
    } as UIMessageChunk);
    if (approval.approved !== undefined) {
      chunks.push({
        type: 'tool-approval-response',
        approvalId: approval.id,
        approved: approval.approved,
        ...(approval.reason !== undefined && { reason: approval.reason }),
      });
    }
  }
  if (state === 'output-available') {
    chunks.push({
      type: 'tool-output-available',
      toolCallId,
      output: part.output,
      ...(part.toolMetadata !== undefined && { toolMetadata: part.toolMetadata }),
      ...(dynamic && { dynamic }),
    } as UIMessageChunk);
  } else if (state === 'output-error') {
    chunks.push({
      type: 'tool-output-error',
      toolCallId,
      errorText: String(part.errorText),
      ...(dynamic && { dynamic }),
    });
  } else if (state === 'output-denied') {
    chunks.push({ type: 'tool-output-denied', toolCallId });
  }
  return chunks;
}
