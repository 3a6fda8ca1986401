import { describe, expect, it } from 'vitest';
import { findRefundAmount, findRefundReason } from '@/lib/ai/nlu/extract-refund';
import { understand } from '@/lib/ai/nlu/understand';

describe('findRefundAmount', () => {
  it.each([
    ['refund $80 on A1002', { amount: 80, currency: 'USD' }],
    ['45.50 dollars back for A1005', { amount: 45.5, currency: 'USD' }],
    ['订单 A1002 退 80 元', { amount: 80, currency: 'CNY' }],
    ['A1003 能不能退我二十块', { amount: 20, currency: 'CNY' }],
    ['A1008 退一百五十元', { amount: 150, currency: 'CNY' }],
    ['A1005 退 20 美元', { amount: 20, currency: 'USD' }],
    ['退我 30 块', { amount: 30, currency: 'CNY' }],
    ['退 ¥45.5 给我', { amount: 45.5, currency: 'CNY' }],
    ['refund 200 yuan on A1004', { amount: 200, currency: 'CNY' }],
    ['refund 1,200 USD', { amount: 1200, currency: 'USD' }],
    ['A1003 申请退款 120', { amount: 120 }],
    ['I want 80 back for A1006', { amount: 80 }],
    ['A1006: I want 120 refunded', { amount: 120 }],
  ])('reads %s', (text, expected) => {
    expect(findRefundAmount(text)).toEqual(expected);
  });

  it.each([
    ['refund A1006, the shoes in size 41 were too small'],
    ['refund 1.005 on A1002'],
    ['refund $80 or $90 on A1002'],
    ['I want a refund for A1002'],
  ])('finds no amount in %s, so the model asks', (text) => {
    expect(findRefundAmount(text)).toEqual({});
  });

  it.each([
    ['refund eighty dollars on A1002', { amount: 80, currency: 'USD' }],
    ['can I have twenty five bucks back on A1003', { amount: 25, currency: 'USD' }],
    ['a hundred and fifty yuan back on A1004 please', { amount: 150, currency: 'CNY' }],
  ])('reads an amount written in English words before a currency: %s', (text, amount) => {
    expect(findRefundAmount(text)).toEqual(amount);
  });

  it('never reads the digits of an order number as money', () => {
    expect(findRefundAmount('refund A1002')).toEqual({});
    expect(findRefundAmount('refund A1002 please, 80 dollars')).toEqual({ amount: 80, currency: 'USD' });
  });

  it('takes a bare number when it answers "how much?"', () => {
    expect(findRefundAmount('80')).toEqual({});
    expect(findRefundAmount('80', { answer: true })).toEqual({ amount: 80 });
    expect(findRefundAmount('12.5', { answer: true })).toEqual({ amount: 12.5 });
  });
});

describe('findRefundReason', () => {
  it.each([
    ['订单 A1002 退 80 元，收到时坏了', '收到时坏了'],
    ['refund $80 on A1002, it arrived broken', 'it arrived broken'],
    ['I want my money back for A1005, 45.50 dollars, wrong size', 'wrong size'],
    ['refund 200 yuan on A1004 because it flickers', 'it flickers'],
    ['I was overcharged on A1001, please refund 50', 'I was overcharged'],
    ['A1004 的台灯坏了，退我 50 元', '台灯坏了'],
    ['A1003 申请退款 120', ''],
  ])('is the rest of %s', (text, reason) => {
    expect(findRefundReason(text)).toBe(reason);
  });
});

describe('understand, for refunds', () => {
  it('reads one refund from a message whose order, amount and reason sit in separate clauses', () => {
    expect(understand('我要退款，订单号 A1007，金额 30 元').requests).toEqual([
      { intent: 'issueRefund', orderIds: ['A1007'], amount: 30, currency: 'CNY', reason: '' },
    ]);
  });

  it('leaves the order out when a refund names two, so the model asks which', () => {
    const [refund] = understand('refund 40 on A1002 and A1003').requests;
    expect(refund).toMatchObject({ intent: 'issueRefund', orderIds: [], amount: 40 });
  });

  it.each([
    ['what is your refund policy?'],
    ['退款什么时候到账'],
    ['is A1005 eligible for a refund?'],
    ['can I get my money back for a sweater that shrank?'],
  ])('reads %s as a help-centre question, not a refund', (text) => {
    expect(understand(text).requests.map((request) => request.intent)).toEqual(['searchKnowledgeBase']);
  });
});
