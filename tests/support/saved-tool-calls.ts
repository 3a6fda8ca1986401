import type { UIMessage } from 'ai';

/** How a saved call went, as its tool part records it. */
export type SavedCallShape =
  | { ran: true }
  | { asked: 'requester' | { role: string }; approved: boolean }
  | { refused: 'policy' | 'quota' };

/** An assistant message holding one settled `issueRefund` call, shaped as the chat saves it. */
export function savedRefundMessage(id: string, amount: number, shape: SavedCallShape): UIMessage {
  const input = { orderId: 'A1001', amount, reason: 'damaged' };
  const output = { refundId: 'RF-000001', orderId: 'A1001', amount, currency: 'EUR', status: 'issued' };
  let part: Record<string, unknown>;
  if ('ran' in shape) {
    part = { state: 'output-available', output };
  } else if ('refused' in shape) {
    part = { state: 'output-available', output: { denied: true, reason: shape.refused, message: 'refused' } };
  } else {
    const steps = shape.asked === 'requester' ? undefined : [{ kind: 'role', role: shape.asked.role }];
    const descriptor = { expiresAt: 0, timeoutMs: 60_000, toolName: 'issueRefund', ...(steps && { steps }) };
    part = shape.approved
      ? { state: 'output-available', output, approval: { id: `ap-${id}`, approved: true, descriptor } }
      : {
          state: 'output-denied',
          approval: { id: `ap-${id}`, approved: false, reason: 'denied: no', descriptor },
        };
  }
  return {
    id,
    role: 'assistant',
    parts: [
      {
        type: 'tool-issueRefund',
        toolCallId: `call-${id}`,
        input,
        ...part,
      } as unknown as UIMessage['parts'][number],
    ],
  };
}
