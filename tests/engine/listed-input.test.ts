import { inputDigestOf } from '@toolgate/engine/shells';
import { describe, expect, it } from 'vitest';
import { approverSummary } from '@/lib/approvals/approver-text';
import { listedInputOf } from '@/lib/approvals/listed-input';

const refund = (reason: string) => ({ orderId: 'A1002', amount: 80, reason });

describe('listedInputOf', () => {
  it('gives the digest and summary of each call as worked out afresh, read once or again', () => {
    const inputs = [
      refund('late'),
      refund('late\u202Egnp.exe'),
      { reason: 'late', amount: 80, orderId: 'A1002' },
      refund('x'.repeat(5_000)),
      null,
    ];
    for (const toolName of ['issueRefund', 'getOrderStatus', 'mcp__unknown__tool']) {
      for (const input of inputs) {
        const expected = {
          inputDigest: inputDigestOf(input),
          ...(approverSummary(toolName, input) !== undefined && {
            summary: approverSummary(toolName, input),
          }),
        };
        expect(listedInputOf(toolName, input)).toEqual(expected);
        expect(listedInputOf(toolName, structuredClone(input))).toEqual(expected);
      }
    }
  });

  it('tells apart two tools given the same input, and two inputs of one tool', () => {
    const input = refund('late');
    expect(listedInputOf('issueRefund', input).summary).toEqual(approverSummary('issueRefund', input));
    expect(listedInputOf('getOrderStatus', input).summary).toEqual(approverSummary('getOrderStatus', input));
    expect(listedInputOf('issueRefund', refund('early')).inputDigest).not.toBe(
      listedInputOf('issueRefund', input).inputDigest,
    );
  });

  it('hands each reader a summary of their own: changing one does not change the next read', () => {
    const first = listedInputOf('issueRefund', refund('late'));
    if (first.summary !== undefined) first.summary.en = 'changed';
    expect(listedInputOf('issueRefund', refund('late')).summary).toEqual(
      approverSummary('issueRefund', refund('late')),
    );
  });
});
