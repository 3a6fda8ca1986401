import { beforeEach, describe, expect, it } from 'vitest';
import { mailApprovers } from '@/lib/approvals/notices/approval-mail';
import { getDb } from '@/lib/db';
import { useApprovalDeliveries } from '../support/approval-deliveries';
import { signUpWithRole, testPolicy, writePolicyFile } from '../support/approval-policy';
import { askForApproval, decideAs, openApprovalEvents, readApprovalAs } from '../support/approval-requests';
import { defaultTestCookie, setDefaultTestCookie } from '../support/chat-client';
import { configureServerOn, signInGuest } from '../support/server-env';
import { type CapturedMail, mailHeader, mailSubject, mailText } from '../support/smtp-capture';
import { databaseEngines } from '../support/test-database';

/** The test policy, with a supervisor rule whose four-second wait puts the reminder two seconds in. */
const policy = {
  ...testPolicy,
  rules: [
    {
      tool: 'createTicket',
      when: { title: { eq: 'remind me' } },
      approvers: [{ role: 'supervisor' }],
      timeoutMs: 4000,
    },
    ...testPolicy.rules,
  ],
};

/** Opens the approver's inbox stream from a page in `locale` (the language switch's cookie), then leaves. */
async function openInboxIn(cookie: string, locale: 'en' | 'zh') {
  const { response, controller } = await openApprovalEvents(
    'inbox=1',
    `${cookie}; toolgate-locale=${locale}`,
  );
  expect(response.status).toBe(200);
  controller.abort();
  await response.body?.cancel();
}

describe.each(databaseEngines)('mail to approvers, on %s', (engine) => {
  const deliveries = useApprovalDeliveries();
  /** The approval mails (not sign-up mail) the sink got. */
  /** The approval mails to approvers (not sign-up mail, nor the requester's outcome mail) the sink got. */
  const approvalMails = (approvalId: string): CapturedMail[] =>
    deliveries.smtp.mails.filter(
      (mail) =>
        mailHeader(mail, 'X-Toolgate-Approval') === approvalId &&
        !/^(Your request|你的申请)/.test(mailSubject(mail)),
    );

  beforeEach(async () => {
    await configureServerOn(engine, {
      TOOLGATE_POLICY: writePolicyFile(policy),
      TOOLGATE_PARK_AFTER_MS: '50',
      ...deliveries.mailEnvironment(),
    });
    // Two instances' mail loops on one database: each mail still leaves once.
    deliveries.startMailLoops(2);
    setDefaultTestCookie((await signUpWithRole(`mail-req-${engine}@example.com`, 'supervisor')).cookie);
  });

  it('mails each verified supervisor once, with the summary, the requester, the wait and the link; the link leads to a decision', async () => {
    const first = await signUpWithRole(`mail-sup1-${engine}@example.com`, 'supervisor');
    await signUpWithRole(`mail-sup2-${engine}@example.com`, 'supervisor');
    await signUpWithRole(`mail-clerk-${engine}@example.com`);
    const { approvalId } = await askForApproval(`chat-mail-${engine}`, 'create a ticket: small refund');
    await expect
      .poll(() => deliveries.mailEventsOf(approvalId), { timeout: 20_000 })
      .toEqual([
        `mail-sup1-${engine}@example.com approval.mail.requested`,
        `mail-sup2-${engine}@example.com approval.mail.requested`,
      ]);
    const text = mailText(approvalMails(approvalId)[0]);
    expect(text).toContain('small refund');
    expect(text).toContain(`Asked by: mail-req-${engine}`);
    // Four hours, read as people read them (rounded down: 3 h 59 min once a moment has passed).
    expect(text).toMatch(/Answer within: (3 h 59 min|4 h 0 min)/);
    expect(text).toMatch(/请在 (3 小时 59 分|4 小时 0 分) 内处理/);
    const link = /https?:\/\/\S+\/approvals\/(\S+)/.exec(text);
    expect(link?.[1]).toBe(approvalId);

    // The link alone grants nothing: a guest who opens it learns nothing.
    const asGuest = await readApprovalAs(approvalId, await signInGuest());
    expect(asGuest.status).toBe(404);
    // Signed in, the supervisor reads and decides it.
    const asSupervisor = await readApprovalAs(approvalId, first.cookie);
    expect(asSupervisor.status).toBe(200);
    const decided = await decideAs(approvalId, first.cookie, true);
    expect(decided.body).toMatchObject({ status: 'approved' });

    // Asked again (a second instance, a retry): nobody gets a second mail of the kind.
    await Promise.all([
      mailApprovers(await getDb(), approvalId, 'requested'),
      mailApprovers(await getDb(), approvalId, 'requested'),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(approvalMails(approvalId)).toHaveLength(2);
  });

  it('writes each approver’s mail in the language they last used in the app, in both when it is not known', async () => {
    const chinese = await signUpWithRole(`mail-zh-${engine}@example.com`, 'supervisor');
    const english = await signUpWithRole(`mail-en-${engine}@example.com`, 'supervisor');
    await signUpWithRole(`mail-unknown-${engine}@example.com`, 'supervisor');
    await openInboxIn(chinese.cookie, 'zh');
    // The last language used counts.
    await openInboxIn(english.cookie, 'zh');
    await openInboxIn(english.cookie, 'en');
    const { approvalId } = await askForApproval(
      `chat-mail-language-${engine}`,
      'create a ticket: small refund',
    );
    await expect.poll(() => approvalMails(approvalId).length, { timeout: 20_000 }).toBe(3);
    const mailTo = (who: string) => {
      const mail = approvalMails(approvalId).find((candidate) => candidate.to.join() === who);
      if (mail === undefined) throw new Error(`no mail to ${who}`);
      return { subject: mailSubject(mail), text: mailText(mail) };
    };

    const zh = mailTo(`mail-zh-${engine}@example.com`);
    expect(zh.subject).toMatch(/^需要您审批：/);
    expect(zh.text).toMatch(/请在 (3 小时 59 分|4 小时 0 分) 内处理/);
    expect(zh.subject + zh.text).not.toMatch(/Approval needed|Answer within|Asked by/);

    const en = mailTo(`mail-en-${engine}@example.com`);
    expect(en.subject).toMatch(/^Approval needed: /);
    expect(en.text).toMatch(/Answer within: (3 h 59 min|4 h 0 min)/);
    expect(en.subject + en.text).not.toMatch(/[审批请处理申请人]/);

    const both = mailTo(`mail-unknown-${engine}@example.com`);
    expect(both.subject).toMatch(/^Approval needed \/ 需要您审批: /);
    expect(both.text).toMatch(/Answer within: (3 h 59 min|4 h 0 min)/);
    expect(both.text).toMatch(/请在 (3 小时 59 分|4 小时 0 分) 内处理/);
  });

  it('keeps a display name with line breaks and a link on one line, its link defanged: the only link is the approval page', async () => {
    await signUpWithRole(`mail-phish-${engine}@example.com`, 'supervisor');
    const requester = (await getDb())
      .updateTable('user')
      .set({ name: 'Ann\r\nX-Priority: 1\n\nYour session expired, sign in at https://evil.example/login' })
      .where('email', '=', `mail-req-${engine}@example.com`);
    await requester.execute();
    const { approvalId } = await askForApproval(`chat-mail-phish-${engine}`, 'create a ticket: small refund');
    await expect.poll(() => approvalMails(approvalId).length, { timeout: 20_000 }).toBe(1);
    const [mail] = approvalMails(approvalId);
    const text = mailText(mail);
    expect(mailHeader(mail, 'X-Priority')).toBeUndefined();
    expect(text.split(/\r?\n/).filter((line) => /^\s*(X-Priority|Your session)/.test(line))).toEqual([]);
    expect(text).toContain(
      'Asked by: Ann⟨U+000D⟩⟨U+000A⟩X-Priority: 1⟨U+000A⟩⟨U+000A⟩Your session expired, sign in at hxxps://evil[.]example/login',
    );
    expect(text).not.toContain('evil.example');
    // In both languages (the reader's is not known yet): the approval page's link, twice, and no other.
    expect(text.match(/https?:\/\/\S+/g)).toEqual([
      expect.stringMatching(/\/approvals\//),
      expect.stringMatching(/\/approvals\//),
    ]);
  });

  it('reminds at half the wait only those who have not decided, and mails nothing for a requester step', async () => {
    await signUpWithRole(`mail-late-${engine}@example.com`, 'supervisor');
    const { approvalId: plain, reader } = await askForApproval(
      `chat-plain-${engine}`,
      'create a ticket: printer on fire',
    );
    const { approvalId } = await askForApproval(`chat-remind-${engine}`, 'create a ticket: remind me');
    await expect
      .poll(() => deliveries.mailEventsOf(approvalId), { timeout: 20_000 })
      .toEqual([`mail-late-${engine}@example.com approval.mail.requested`]);
    await expect
      .poll(() => deliveries.mailEventsOf(approvalId), { timeout: 20_000 })
      .toEqual([
        `mail-late-${engine}@example.com approval.mail.reminder`,
        `mail-late-${engine}@example.com approval.mail.requested`,
      ]);
    expect(mailText(approvalMails(approvalId)[1])).toMatch(/Answer within: \d+ s/);
    expect(approvalMails(plain)).toEqual([]);
    await decideAs(plain, defaultTestCookie(), false);
    await reader.rest();
  });
});
