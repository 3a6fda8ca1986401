import { describe, expect, it } from 'vitest';
import { waitingRequestStep } from '@/lib/ai/offline-waiting';
import { readAnsweredQuestions, waitingRequestsInstructions } from '@/lib/ai/waiting-requests-block';

const now = Date.parse('2026-12-03T10:00:00Z');
const waiting = {
  approvalId: 'ap-1',
  tool: 'issueRefund',
  summary: { en: 'Refund 80.00 USD on A1002', zh: '为订单 A1002 退款 80.00 USD' },
  waitsFor: ['supervisor'],
  askedAt: now - 60_000,
  expiresAt: now + 3_600_000,
};
const answered = {
  approvalId: 'ap-1',
  tool: 'issueRefund',
  summary: waiting.summary,
  askedBy: { name: 'Wang', role: 'supervisor' },
  question: 'Was the item opened?',
};

describe('waitingRequestStep', () => {
  it('says the answer was passed on, naming who asked, instead of withdrawing or starting a request', () => {
    const system = waitingRequestsInstructions([waiting], [], now, [answered]);
    expect(readAnsweredQuestions(system)).toEqual([answered]);
    for (const text of ['No, cancel nothing, it is sealed', 'refund $80 on A1002, it arrived broken']) {
      expect(
        waitingRequestStep({
          system,
          text,
          language: 'en',
          available: new Set(['issueRefund', 'withdrawRequest']),
        }),
      ).toEqual({
        kind: 'reply',
        text: "I've passed your answer to Wang (supervisor). “Refund 80.00 USD on A1002” is still waiting for their decision; you will be told the outcome.",
      });
    }
  });

  it('answers in Chinese with the role first', () => {
    const system = waitingRequestsInstructions([waiting], [], now, [answered]);
    expect(waitingRequestStep({ system, text: '没有拆封', language: 'zh', available: new Set() })).toEqual({
      kind: 'reply',
      text: '我已把你的回答转给主管 Wang。「为订单 A1002 退款 80.00 USD」仍在等待审批，有结果会告诉你。',
    });
  });

  it('withdraws as before when the message answers no question', () => {
    const system = waitingRequestsInstructions([waiting], [], now);
    expect(
      waitingRequestStep({
        system,
        text: 'cancel the refund request',
        language: 'en',
        available: new Set(['withdrawRequest']),
      }),
    ).toEqual({ kind: 'withdraw', approvalId: 'ap-1' });
  });

  it('reads "is anyone looking at this?" as asking for news of the waiting request', () => {
    const system = waitingRequestsInstructions([waiting], [], now);
    for (const [text, language] of [
      ['is anyone looking at this?', 'en'],
      ['has anybody checked my refund yet', 'en'],
      ['hello? is someone checking this?', 'en'],
      ['is somebody reviewing my request', 'en'],
      ['有人在处理吗', 'zh'],
    ] as const) {
      const step = waitingRequestStep({ system, text, language, available: new Set() });
      expect(step).toMatchObject({ kind: 'reply' });
      expect(step?.kind === 'reply' && step.text).toMatch(/still waiting for a supervisor|仍在等待主管/);
    }
  });
});
