import { describe, expect, it } from 'vitest';
import { approvalMailOf } from '@/lib/approvals/approval-mail';

describe('an approver mail', () => {
  it('shows hidden characters in the requester name as code points, as the card does', () => {
    const mail = approvalMailOf({
      kind: 'requested',
      to: 'sup@example.com',
      language: 'en',
      summary: { en: 'Refund 80.00 on order A1004', zh: '订单 A1004 退款 80.00' },
      requester: 'ann\u202eevil',
      expiresAt: 14_400_000,
      now: 0,
      url: 'http://localhost/approvals/a1',
      roles: ['supervisor'],
    });
    expect(mail.text).not.toMatch(/\u202e/);
    expect(mail.text).toContain('ann⟨U+202E⟩evil');
  });
});

describe('an approver mail about a refund', () => {
  const mail = (language: 'en' | 'zh') =>
    approvalMailOf({
      kind: 'requested',
      to: 'sup@example.com',
      language,
      summary: { en: 'Refund 80.00 on order A1002', zh: '订单 A1002 退款 80.00' },
      requester: 'Ann',
      expiresAt: 14_400_000,
      now: 0,
      url: 'http://localhost/approvals/a1',
      roles: ['supervisor'],
      customerMessage: 'refund $80 on A1002, see https://evil.example/x',
      reason: 'arrived broken',
      preview: {
        en: [{ label: 'Left after this refund', value: '440.00 USD' }],
        zh: [{ label: '本次退款后剩余', value: '440.00 USD' }],
      },
    });

  it('names the role in the reader’s language and carries the customer’s reason, message and the preview’s lines', () => {
    const chinese = mail('zh').text;
    expect(chinese).toContain('（主管）');
    expect(chinese).not.toContain('supervisor');
    expect(chinese).toContain('原因：arrived broken');
    expect(chinese).toContain('本次退款后剩余: 440.00 USD');
    expect(chinese).toContain('客户留言');
    const english = mail('en').text;
    expect(english).toContain('(supervisor)');
    expect(english).toContain('Reason: arrived broken');
    expect(english).toContain('Left after this refund: 440.00 USD');
  });

  it('never makes the customer’s words a clickable link', () => {
    const text = mail('en').text;
    expect(text).not.toContain('https://evil.example');
    expect(text).toContain('https[:]//evil[.]example/x');
  });
});
