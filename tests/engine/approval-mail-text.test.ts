import { describe, expect, it } from 'vitest';
import { approvalMailOf } from '@/lib/approvals/notices/approval-mail';

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

describe('an approver mail, given text its requester chose', () => {
  const phishing =
    'Ann\r\nSubject: Urgent\nX-Priority: 1\n\nSign in again at https://evil.example/login\u2028or www.evil.example';
  const mailFrom = (language?: 'en' | 'zh') =>
    approvalMailOf({
      kind: 'requested',
      to: 'sup@example.com',
      ...(language !== undefined && { language }),
      summary: {
        en: 'Create ticket “see http://evil.example/a\nX-Bcc: boss@evil.example”',
        zh: '创建工单「见 http://evil.example/a\nX-Bcc: boss@evil.example」',
      },
      requester: phishing,
      expiresAt: 14_400_000,
      now: 0,
      url: 'https://toolgate.example/approvals/a1',
      roles: ['supervisor'],
    });

  it.each([['en' as const], ['zh' as const], [undefined]])(
    'keeps the name and the summary on one line each, control characters as code points (language %s)',
    (language) => {
      const mail = mailFrom(language);
      const lines = mail.text.split('\n');
      // No line the requester wrote starts a header or a line of its own.
      expect(lines.filter((line) => /^\s*(Subject|X-Priority|X-Bcc|Sign in|or www)/.test(line))).toEqual([]);
      expect(mail.text).not.toMatch(/[\r\u2028\u2029]/);
      expect(mail.text).toContain(
        'Ann⟨U+000D⟩⟨U+000A⟩Subject: Urgent⟨U+000A⟩X-Priority: 1⟨U+000A⟩⟨U+000A⟩Sign in',
      );
      expect(mail.subject).not.toMatch(/[\r\n]/);
    },
  );

  it('defangs every link the requester wrote: the only link left is the approval page', () => {
    const mail = mailFrom();
    expect(mail.text).toContain('hxxps://evil[.]example/login');
    expect(mail.text).toContain('www[.]evil[.]example');
    expect(mail.text).toContain('hxxp://evil[.]example/a');
    expect(mail.text).toContain('boss@evil[.]example');
    expect(mail.subject).not.toMatch(/https?:|evil\.example/);
    const links = mail.text.match(/(https?:\/\/|www\.)\S+/g) ?? [];
    expect(new Set(links)).toEqual(new Set(['https://toolgate.example/approvals/a1']));
    expect(mail.text).not.toMatch(/evil\.example/);
  });

  it('leaves amounts, order ids and plain words as they are', () => {
    const mail = approvalMailOf({
      kind: 'requested',
      to: 'sup@example.com',
      language: 'en',
      summary: { en: 'Refund 80.50 USD on order A1004: arrived broken. Sorry', zh: '' },
      requester: 'Ann Lee',
      expiresAt: 14_400_000,
      now: 0,
      url: 'https://toolgate.example/approvals/a1',
      roles: ['supervisor'],
    });
    expect(mail.text).toContain('Refund 80.50 USD on order A1004: arrived broken. Sorry');
    expect(mail.text).toContain('Asked by: Ann Lee');
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
    expect(text).toContain('hxxps://evil[.]example/x');
  });
});
