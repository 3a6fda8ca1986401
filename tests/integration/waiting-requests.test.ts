import { beforeEach, describe, expect, it } from 'vitest';
import { GET as activity } from '@/app/api/activity/route';
import { GET as listApprovals } from '@/app/api/approvals/route';
import { POST as stopRoute } from '@/app/api/chat/[id]/stop/route';
import { POST as undoRoute, GET as undoStateRoute } from '@/app/api/chat/undo/route';
import { GET as readChatRoute } from '@/app/api/chats/[id]/route';
import { useApprovalDeliveries } from '../support/approval-deliveries';
import { signUpWithRole, writePolicyFile } from '../support/approval-policy';
import { askForApproval, decideAs, readApprovalAs, sendToChat } from '../support/approval-requests';
import { defaultTestCookie, getRequest, jsonRequest, setDefaultTestCookie } from '../support/chat-client';
import { configureServerOn } from '../support/server-env';
import { type CapturedMail, mailHeader, mailSubject, mailText } from '../support/smtp-capture';
import { databaseEngines } from '../support/test-database';

type View = { approvalId: string; status: string; reason?: string };

async function inboxIds(cookie: string): Promise<string[]> {
  const response = await listApprovals(getRequest('/api/approvals', { cookie }));
  return ((await response.json()) as { approvals: View[] }).approvals.map((view) => view.approvalId);
}

async function auditOutcomes(cookie = defaultTestCookie()): Promise<string[]> {
  const response = await activity(getRequest('/api/activity', { cookie }));
  return ((await response.json()) as { outcome: string }[]).map((row) => row.outcome);
}

describe.each(databaseEngines)(
  'a request that waits for someone else, in the conversation, on %s',
  (engine) => {
    let supervisor: { cookie: string; id: string };

    beforeEach(async () => {
      await configureServerOn(engine, { TOOLGATE_POLICY: writePolicyFile(), TOOLGATE_PARK_AFTER_MS: '50' });
      supervisor = await signUpWithRole(`sup-${engine}@example.com`, 'supervisor');
      setDefaultTestCookie((await signUpWithRole(`customer-${engine}@example.com`)).cookie);
    });

    it('keeps waiting when the customer writes again, and "any update?" says for whom and until when', async () => {
      const { approvalId, reader } = await askForApproval('chat-wait', 'create a ticket: small refund');
      await reader.rest();
      const followUp = await sendToChat('chat-wait', 'any update on my request?');
      await followUp.rest();
      expect(followUp.text()).toMatch(/still waiting for a supervisor: asked \d+ s ago, due in 3 h 59 min/);
      expect((await readApprovalAs<View>(approvalId, supervisor.cookie)).body.status).toBe('pending');
      expect(await inboxIds(supervisor.cookie)).toEqual([approvalId]);

      // The supervisor's decision still runs it and the customer's chat hears of it.
      expect((await decideAs(approvalId, supervisor.cookie, true)).body).toMatchObject({
        status: 'approved',
      });
    });

    it('answers the same question in Chinese', async () => {
      const { reader } = await askForApproval('chat-wait-zh', 'create a ticket: small refund');
      await reader.rest();
      const followUp = await sendToChat('chat-wait-zh', '我的申请有进展吗？');
      await followUp.rest();
      expect(followUp.text()).toMatch(/仍在等待主管审批/);
    });

    it('withdraws the request when the customer says so: withdrawn, gone from the inbox, audited, said', async () => {
      const { approvalId, reader } = await askForApproval('chat-withdraw', 'create a ticket: small refund');
      await reader.rest();
      const cancel = await sendToChat('chat-withdraw', 'cancel the ticket request please');
      await cancel.rest();
      expect(cancel.text()).toContain('I withdrew');
      const view = await readApprovalAs<View>(approvalId, supervisor.cookie);
      expect(view.body).toMatchObject({ status: 'withdrawn', reason: 'withdrawn' });
      expect(await inboxIds(supervisor.cookie)).toEqual([]);
      await expect.poll(() => auditOutcomes()).toContain('withdrawn');
      expect((await decideAs(approvalId, supervisor.cookie, true)).status).toBe(404);
    });

    it('withdraws on "算了，不退了" too', async () => {
      const { approvalId, reader } = await askForApproval('chat-withdraw-zh', '退款 A1004 80 元，坏了');
      await reader.rest();
      const cancel = await sendToChat('chat-withdraw-zh', '算了，不退了');
      await cancel.rest();
      expect(cancel.text()).toContain('已撤回');
      expect((await readApprovalAs<View>(approvalId, supervisor.cookie)).body.status).toBe('withdrawn');
    });
  },
);

describe.each(databaseEngines)("the person's own card and their next message, on %s", (engine) => {
  beforeEach(async () => {
    await configureServerOn(engine, { TOOLGATE_POLICY: writePolicyFile() });
    setDefaultTestCookie((await signUpWithRole(`own-${engine}@example.com`)).cookie);
  });

  it('"never mind" denies the card with their words as the note, and the reply says so', async () => {
    const { approvalId, reader } = await askForApproval('chat-own-no', 'create a ticket: printer broken');
    const next = await sendToChat('chat-own-no', 'never mind, it works again');
    await Promise.all([reader.rest(), next.rest()]);
    const view = await readApprovalAs<View & { steps: { decision?: string }[] }>(
      approvalId,
      defaultTestCookie(),
    );
    expect(view.body).toMatchObject({ status: 'denied', reason: 'denied' });
    expect(next.text()).toContain('OK, I cancelled');
    // One reply for one cancellation: the turn that asked stops at the card and writes no wrap-up.
    expect(reader.text()).toBe('');
  });

  it('any other message supersedes it, and the reply says so', async () => {
    const { approvalId, reader } = await askForApproval('chat-own-other', 'create a ticket: printer broken');
    const next = await sendToChat('chat-own-other', 'where is my order A1001');
    await Promise.all([reader.rest(), next.rest()]);
    expect((await readApprovalAs<View>(approvalId, defaultTestCookie())).body.status).toBe('superseded');
    expect(next.text()).toContain('You wrote something else');
    expect(reader.text()).toBe('');
  });
});

type SavedToolPart = {
  type: string;
  state: string;
  input?: unknown;
  output?: Record<string, unknown>;
  approval?: { reason?: string };
};

async function savedToolPart(chatId: string): Promise<SavedToolPart | undefined> {
  const response = await readChatRoute(getRequest(`/api/chats/${chatId}`), {
    params: Promise.resolve({ id: chatId }),
  });
  const { messages } = (await response.json()) as { messages: { parts: SavedToolPart[] }[] };
  return messages.flatMap((message) => message.parts).findLast((part) => part.type.startsWith('tool-'));
}

async function allText(chatId: string): Promise<string> {
  const response = await readChatRoute(getRequest(`/api/chats/${chatId}`), {
    params: Promise.resolve({ id: chatId }),
  });
  const { messages } = (await response.json()) as {
    messages: { parts: { type: string; text?: string }[] }[];
  };
  return messages
    .flatMap((message) => message.parts)
    .flatMap((part) => (part.type === 'text' && part.text !== undefined ? [part.text] : []))
    .join('\n');
}

describe.each(databaseEngines)('every decision names its maker, on %s', (engine) => {
  let supervisor: { cookie: string; id: string };

  beforeEach(async () => {
    await configureServerOn(engine, { TOOLGATE_POLICY: writePolicyFile(), TOOLGATE_PARK_AFTER_MS: '50' });
    supervisor = await signUpWithRole(`wang-${engine}@example.com`, 'supervisor');
    setDefaultTestCookie((await signUpWithRole(`asker-${engine}@example.com`)).cookie);
  });

  it("tells the model who denied, with their note as theirs, and the reply never says 'you said'", async () => {
    const { approvalId, reader } = await askForApproval('chat-named-deny', 'create a ticket: small refund');
    await reader.rest();
    const note = 'A refund ticket is already open for this order';
    expect((await decideAs(approvalId, supervisor.cookie, false, { reason: note })).body).toMatchObject({
      status: 'denied',
    });
    await expect.poll(() => allText('chat-named-deny')).toContain(`wang-${engine} (supervisor) declined`);
    const part = await savedToolPart('chat-named-deny');
    expect(part?.state).toBe('output-denied');
    expect(part?.approval?.reason).toContain(`wang-${engine} (supervisor), not the user, declined`);
    expect(await allText('chat-named-deny')).not.toContain('You said');
    await expect
      .poll(async () => (await auditDetails()).find((row) => row.outcome === 'denied')?.detail)
      .toMatchObject({
        decidedBy: { name: `wang-${engine}`, role: 'supervisor' },
        note,
      });
  });

  it('carries decidedBy and editedBy in the result of a call a supervisor edited and allowed; the title shows what ran', async () => {
    const { approvalId, reader } = await askForApproval(
      'chat-named-edit',
      'refund $150 on A1002, it arrived broken',
    );
    await reader.rest();
    const view = await readApprovalAs<{ input: Record<string, unknown>; inputDigest: string }>(
      approvalId,
      supervisor.cookie,
    );
    const edited = { ...view.body.input, amount: 120 };
    const decided = await decideAs(approvalId, supervisor.cookie, true, {
      input: edited,
      inputDigest: view.body.inputDigest,
    });
    expect(decided.body).toMatchObject({ status: 'approved' });
    await expect.poll(async () => (await savedToolPart('chat-named-edit'))?.state).toBe('output-available');
    const part = await savedToolPart('chat-named-edit');
    expect(part?.output).toMatchObject({
      amount: 120,
      decidedBy: { name: `wang-${engine}`, role: 'supervisor' },
      editedBy: { name: `wang-${engine}`, role: 'supervisor' },
    });
    await expect
      .poll(() => allText('chat-named-edit'))
      .toContain(`wang-${engine} (supervisor) changed the request`);
    expect(await allText('chat-named-edit')).not.toContain('You edited');
  });
});

async function auditDetails(cookie = defaultTestCookie()) {
  const response = await activity(getRequest('/api/activity', { cookie }));
  return (await response.json()) as { outcome: string; detail: Record<string, unknown> | null }[];
}

async function undoAs(cookie: string, body: Record<string, unknown>) {
  const response = await undoRoute(jsonRequest('/api/chat/undo', body, { cookie }));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function undoStateAs(cookie: string, query: string) {
  const response = await undoStateRoute(getRequest(`/api/chat/undo?${query}`, { cookie }));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe.each(databaseEngines)('undo belongs to whoever approved, on %s', (engine) => {
  let supervisor: { cookie: string; id: string };
  let customer: { cookie: string; id: string };

  beforeEach(async () => {
    await configureServerOn(engine, { TOOLGATE_POLICY: writePolicyFile(), TOOLGATE_PARK_AFTER_MS: '50' });
    supervisor = await signUpWithRole(`undo-sup-${engine}@example.com`, 'supervisor');
    customer = await signUpWithRole(`undo-cus-${engine}@example.com`);
    setDefaultTestCookie(customer.cookie);
  });

  it('gives the undo of a supervisor-approved write to the supervisor, not to the requester', async () => {
    const { approvalId, reader } = await askForApproval('chat-undo-role', 'create a ticket: small refund');
    await reader.rest();
    expect((await decideAs(approvalId, supervisor.cookie, true)).body).toMatchObject({ status: 'approved' });
    await expect.poll(async () => (await savedToolPart('chat-undo-role'))?.state).toBe('output-available');
    const toolCallId = (await savedToolPart('chat-undo-role')) as SavedToolPart & { toolCallId: string };
    const byCall = `chatId=chat-undo-role&toolCallId=${toolCallId.toolCallId}`;

    // The requester's card says who can; neither way in lets them undo it.
    expect((await undoStateAs(customer.cookie, byCall)).body).toMatchObject({
      undoable: false,
      undoBy: { roles: ['supervisor'] },
    });
    expect((await undoAs(customer.cookie, { approvalId })).status).toBe(403);
    expect(
      (await undoAs(customer.cookie, { chatId: 'chat-undo-role', toolCallId: toolCallId.toolCallId })).status,
    ).toBe(403);

    expect((await undoStateAs(supervisor.cookie, `approvalId=${approvalId}`)).body).toMatchObject({
      undoable: true,
    });
    expect(await undoAs(supervisor.cookie, { approvalId })).toEqual({ status: 200, body: { undone: true } });
  });

  it('leaves the undo of a write the requester approved with the requester; a supervisor cannot take it', async () => {
    const { approvalId, reader } = await askForApproval('chat-undo-own', 'create a ticket: printer broken');
    expect((await decideAs(approvalId, customer.cookie, true)).body).toMatchObject({ status: 'approved' });
    await reader.rest();
    expect((await undoAs(supervisor.cookie, { approvalId })).status).toBe(404);
    expect(await undoAs(customer.cookie, { approvalId })).toEqual({ status: 200, body: { undone: true } });
  });
});

describe.each(databaseEngines)('the requester hears of the outcome, on %s', (engine) => {
  let supervisor: { cookie: string; id: string };

  beforeEach(async () => {
    await configureServerOn(engine, { TOOLGATE_POLICY: writePolicyFile(), TOOLGATE_PARK_AFTER_MS: '50' });
    supervisor = await signUpWithRole(`hear-sup-${engine}@example.com`, 'supervisor');
    setDefaultTestCookie((await signUpWithRole(`hear-cus-${engine}@example.com`)).cookie);
  });

  it('gets a reply in the chat when the supervisor decides after the conversation went on', async () => {
    const { approvalId, reader } = await askForApproval('chat-hear-deny', 'create a ticket: small refund');
    await reader.rest();
    await (await sendToChat('chat-hear-deny', 'any update?')).rest();
    await decideAs(approvalId, supervisor.cookie, false, { reason: 'Not eligible' });
    await expect
      .poll(() => allText('chat-hear-deny'))
      .toContain(
        `denied by hear-sup-${engine} (supervisor), so nothing was done. Their note: “Not eligible”.`,
      );
  });

  it('shows the hidden characters of a note to the customer, in the reply and in the notice', async () => {
    const note = 'no\u200B refund\u202E for you';
    const { approvalId, reader } = await askForApproval('chat-hear-hidden', 'create a ticket: small refund');
    await reader.rest();
    await (await sendToChat('chat-hear-hidden', 'any update?')).rest();
    await decideAs(approvalId, supervisor.cookie, false, { reason: note });
    await expect
      .poll(() => allText('chat-hear-hidden'))
      .toContain('Their note: “no⟨U+200B⟩ refund⟨U+202E⟩ for you”.');
    expect(await allText('chat-hear-hidden')).not.toMatch(/[\u200B\u202E]/u);

    const own = await askForApproval('chat-reply-hidden', 'create a ticket: small refund');
    await decideAs(own.approvalId, supervisor.cookie, false, { reason: note });
    await own.reader.rest();
    await expect.poll(() => allText('chat-reply-hidden')).toContain('“no⟨U+200B⟩ refund⟨U+202E⟩ for you”');
    expect(await allText('chat-reply-hidden')).not.toMatch(/[\u200B\u202E]/u);
  });

  it('gets a reply in the chat when nobody decides in time', async () => {
    const { reader } = await askForApproval('chat-hear-expire', 'create a ticket: hurry');
    await reader.rest();
    await expect
      .poll(() => allText('chat-hear-expire'), { timeout: 10_000 })
      .toContain('nobody decided it in time, so it expired');
  });
});

describe.each(databaseEngines)('the requester is mailed the outcome, on %s', (engine) => {
  const deliveries = useApprovalDeliveries();

  beforeEach(async () => {
    await configureServerOn(engine, {
      TOOLGATE_POLICY: writePolicyFile(),
      TOOLGATE_PARK_AFTER_MS: '50',
      ...deliveries.mailEnvironment(),
    });
    deliveries.startMailLoops(2);
  });

  it('mails a verified requester once, with the outcome and a link to the chat', async () => {
    const supervisor = await signUpWithRole(`mail-out-sup-${engine}@example.com`, 'supervisor');
    setDefaultTestCookie((await signUpWithRole(`mail-out-cus-${engine}@example.com`)).cookie);
    const { approvalId, reader } = await askForApproval('chat-mail-out', 'create a ticket: small refund');
    await reader.rest();
    await decideAs(approvalId, supervisor.cookie, true);
    await expect
      .poll(() => deliveries.mailEventsOf(approvalId), { timeout: 20_000 })
      .toContain(`mail-out-cus-${engine}@example.com approval.mail.requester.outcome`);
    const mail = deliveries.smtp.mails.find(
      (candidate) =>
        mailHeader(candidate, 'X-Toolgate-Approval') === approvalId &&
        mailText(candidate).includes('/chat/chat-mail-out'),
    );
    expect(mail).toBeDefined();
    expect(mailText(mail as CapturedMail)).toContain(
      `approved by mail-out-sup-${engine} (supervisor) and done`,
    );
    // The subject says the outcome (a requester without a chosen language gets both).
    expect(mailSubject(mail as CapturedMail)).toBe(
      'Your request was approved and done / 你的申请已批准并完成',
    );
    expect(
      deliveries.mailEventsOf(approvalId).filter((event) => event.endsWith('requester.outcome')),
    ).toHaveLength(1);
  });

  it('tells a requester whose request an approver changed what ran, who changed it and what they asked for', async () => {
    const supervisor = await signUpWithRole(`mail-edit-sup-${engine}@example.com`, 'supervisor');
    setDefaultTestCookie((await signUpWithRole(`mail-edit-cus-${engine}@example.com`)).cookie);
    const { approvalId, reader } = await askForApproval('chat-mail-edit', 'refund 80 on order A1002');
    await reader.rest();
    const { body: view } = await readApprovalAs(approvalId, supervisor.cookie);
    const decided = await decideAs(approvalId, supervisor.cookie, true, {
      input: { ...(view.input as Record<string, unknown>), amount: 70 },
    });
    expect(decided.status).toBe(200);
    await expect
      .poll(() => deliveries.mailEventsOf(approvalId), { timeout: 20_000 })
      .toContain(`mail-edit-cus-${engine}@example.com approval.mail.requester.outcome`);
    const mail = deliveries.smtp.mails.find(
      (candidate) =>
        mailHeader(candidate, 'X-Toolgate-Approval') === approvalId &&
        mailText(candidate).includes('/chat/chat-mail-edit'),
    );
    const text = mailText(mail as CapturedMail);
    expect(text).toContain(
      `“Refund 70.00 on order A1002”: approved by mail-edit-sup-${engine} (supervisor) with a change (you asked for “Refund 80.00 on order A1002”) and done`,
    );
    expect(text).toContain('修改后批准并完成（你原先申请的是「订单 A1002 退款 80.00」）');
  });
});

describe.each(databaseEngines)(
  'the requester whose page still follows the turn is mailed too, on %s',
  (engine) => {
    const deliveries = useApprovalDeliveries();

    beforeEach(async () => {
      // Parks only after an hour unfollowed: the turn below stays live while its reader reads.
      await configureServerOn(engine, {
        TOOLGATE_POLICY: writePolicyFile(),
        TOOLGATE_PARK_AFTER_MS: '3600000',
        ...deliveries.mailEnvironment(),
      });
      deliveries.startMailLoops(2);
    });

    it.each([
      [true, 'approved by', 'and done', 'Your request was approved and done / 你的申请已批准并完成'],
      [false, 'denied by', '', 'Your request was denied / 你的申请被拒绝'],
    ])(
      'mails the outcome of a supervisor decision (allow: %s) that the live turn carries out, its subject saying which',
      async (allow, said, done, subject) => {
        const supervisor = await signUpWithRole(`live-sup-${allow}-${engine}@example.com`, 'supervisor');
        setDefaultTestCookie((await signUpWithRole(`live-cus-${allow}-${engine}@example.com`)).cookie);
        const chatId = `chat-live-mail-${allow}`;
        const { approvalId, reader } = await askForApproval(chatId, 'create a ticket: small refund');
        expect((await decideAs(approvalId, supervisor.cookie, allow)).status).toBe(200);
        // The same turn went on: its stream carries the call's end, no continuation was needed.
        const chunks = await reader.rest();
        expect(chunks.map((chunk) => chunk.type)).toContain(
          allow ? 'tool-output-available' : 'tool-output-denied',
        );
        await expect
          .poll(() => deliveries.mailEventsOf(approvalId), { timeout: 20_000 })
          .toContain(`live-cus-${allow}-${engine}@example.com approval.mail.requester.outcome`);
        const mail = deliveries.smtp.mails.find(
          (candidate) =>
            mailHeader(candidate, 'X-Toolgate-Approval') === approvalId &&
            mailText(candidate).includes(`/chat/${chatId}`),
        );
        expect(mailText(mail as CapturedMail)).toContain(`${said} live-sup-${allow}-${engine} (supervisor)`);
        expect(mailText(mail as CapturedMail)).toContain(done);
        expect(mailSubject(mail as CapturedMail)).toBe(subject);
      },
    );
  },
);

describe.each(databaseEngines)('Stop and a request that waits for someone else, on %s', (engine) => {
  let supervisor: { cookie: string; id: string };

  beforeEach(async () => {
    await configureServerOn(engine, { TOOLGATE_POLICY: writePolicyFile(), TOOLGATE_PARK_AFTER_MS: '50' });
    supervisor = await signUpWithRole(`stop-sup-${engine}@example.com`, 'supervisor');
    setDefaultTestCookie((await signUpWithRole(`stop-cus-${engine}@example.com`)).cookie);
  });

  it("ends the running turn's own card and leaves an earlier request for a supervisor waiting", async () => {
    const earlier = await askForApproval('chat-stop-both', 'create a ticket: small refund');
    await earlier.reader.rest();
    const own = await askForApproval('chat-stop-both', 'create a ticket: printer broken');
    const response = await stopRoute(jsonRequest('/api/chat/chat-stop-both/stop', {}), {
      params: Promise.resolve({ id: 'chat-stop-both' }),
    });
    expect(await response.json()).toEqual({ stopped: true });
    await own.reader.rest();
    expect((await readApprovalAs<View>(own.approvalId, defaultTestCookie())).body.status).toBe('stopped');
    expect((await readApprovalAs<View>(earlier.approvalId, supervisor.cookie)).body.status).toBe('pending');
  });
});
