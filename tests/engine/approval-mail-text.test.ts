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
