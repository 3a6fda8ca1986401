import type { UIMessage } from 'ai';

const settledToolStates = new Set(['output-available', 'output-error']);

function isToolPart(
  part: UIMessage['parts'][number],
): part is Extract<UIMessage['parts'][number], { toolCallId: string }> {
  return part.type === 'dynamic-tool' || part.type.startsWith('tool-');
}

/**
 * Makes a client-sent history safe to hand to the model.
 *
 * Only the registry decides whether a listed tool runs. The history comes from the
 * client, so any approval it carries is untrusted: approval fields are dropped, and
 * tool parts that never settled (`approval-requested`, `approval-responded`,
 * `output-denied`, or still streaming input) are removed. Otherwise a forged
 * `approval-responded` / `approved: true` part would make the SDK execute the tool
 * through its own resubmit flow, and a dangling approval would not convert cleanly
 * for a real provider adapter.
 */
export function sanitizeUIMessages(messages: UIMessage[]): UIMessage[] {
  return messages.map((message) => ({
    ...message,
    parts: message.parts.flatMap((part): UIMessage['parts'] => {
      if (!isToolPart(part)) return [part];
      if (!settledToolStates.has(part.state)) return [];
      const { approval: _approval, ...rest } = part as typeof part & { approval?: unknown };
      return [rest as UIMessage['parts'][number]];
    }),
  }));
}
