import { inputDigestOf } from '@toolgate/engine/shells';
import { describe, expect, it } from 'vitest';
import { approverSummary } from '@/lib/approvals/notices/approver-text';
import { listedInputOf } from '@/lib/approvals/surfaces/listed-input';

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

  it('gives the same answer keyed by the stored JSON text of an input, in any spelling, as by the input', () => {
    const input = refund('late\u202Egnp.exe');
    const expected = { inputDigest: inputDigestOf(input), summary: approverSummary('issueRefund', input) };
    for (const text of [
      JSON.stringify(input),
      JSON.stringify(input, null, 2),
      '{"reason":"late\\u202Egnp.exe","amount":80.0,"orderId":"A1002"}',
    ]) {
      expect(JSON.parse(text)).toEqual(input);
      expect(listedInputOf('issueRefund', JSON.parse(text), text)).toEqual(expected);
      expect(listedInputOf('issueRefund', input)).toEqual(expected);
    }
    // Another input's text is another key: never the first input's answer.
    const other = refund('early');
    expect(listedInputOf('issueRefund', other, JSON.stringify(other)).inputDigest).toBe(inputDigestOf(other));
  });

  it('hands each reader a summary of their own: changing one does not change the next read', () => {
    const first = listedInputOf('issueRefund', refund('late'));
    if (first.summary !== undefined) first.summary.en = 'changed';
    expect(listedInputOf('issueRefund', refund('late')).summary).toEqual(
      approverSummary('issueRefund', refund('late')),
    );
  });
});
