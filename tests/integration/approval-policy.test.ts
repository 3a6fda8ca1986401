import { beforeEach, describe, expect, it } from 'vitest';
import { GET as activity } from '@/app/api/activity/route';
import { GET as listApprovals } from '@/app/api/approvals/route';
import { GET as tickets } from '@/app/api/tickets/route';
import { requestApproval } from '@/lib/approvals/life-cycle/approval-life-cycle';
import { guestRequestEndedNote } from '@/lib/approvals/life-cycle/settle-approvals';
import { getSessionUser } from '@/lib/auth/session-user';
import { findAccountByEmail, getDb, markEmailVerified } from '@/lib/db';
import { revokeRoleOf, signUpWithRole, writePolicyFile } from '../support/approval-policy';
import {
  decideAs,
  lastSavedMessage,
  openApprovalEvents,
  readApprovalAs,
  sendToChat,
} from '../support/approval-requests';
import { signIn, signUp } from '../support/auth-client';
import { defaultTestCookie, getRequest, setDefaultTestCookie } from '../support/chat-client';
import { listRefunds } from '../support/database-reads';
import { configureServerOn, signInGuest } from '../support/server-env';
import { databaseEngines } from '../support/test-database';

type Step = { kind: string; role?: string; decision?: string; decidedBy?: { name: string } };
type View = {
  approvalId: string;
  chatId: string;
  tool: string;
  status: string;
  requester: { name: string };
  steps: Step[];
  expiresAt: number;
  remainingMs: number;
  inputDigest: string;
  chatExcerpt?: string;
};

async function inbox(cookie: string, query = '') {
  const response = await listApprovals(getRequest(`/api/approvals${query}`, { cookie }));
  return {
    status: response.status,
    body: (await response.json()) as { approvals: View[]; nextCursor: string | null },
  };
}

async function ticketTitles(cookie = defaultTestCookie()): Promise<string[]> {
  const rows = (await (await tickets(getRequest('/api/tickets', { cookie }))).json()) as { title: string }[];
  return rows.map((row) => row.title);
}

async function auditRows(cookie = defaultTestCookie()) {
  const response = await activity(getRequest('/api/activity', { cookie }));
  const rows = (await response.json()) as { outcome: string; detail: Record<string, unknown> | null }[];
  return { rows };
}

describe.each(databaseEngines)('approvals decided by other people on %s', (engine) => {
  let policy: string;
  let supervisor: { cookie: string; id: string };
  let second: { cookie: string; id: string };

  beforeEach(async () => {
    policy = writePolicyFile();
    await configureServerOn(engine, { TOOLGATE_POLICY: policy, TOOLGATE_PARK_AFTER_MS: '50' });
    supervisor = await signUpWithRole(`sup1-${engine}@example.com`, 'supervisor');
    second = await signUpWithRole(`sup2-${engine}@example.com`, 'supervisor');
    // Only a signed-in, verified user may ask a supervisor: the requester of these tests is one.
    setDefaultTestCookie((await signUpWithRole(`requester-${engine}@example.com`)).cookie);
  });

  it('refuses a call a rule denies without a card: a policy denial for the model, audited', async () => {
    const reader = await sendToChat('chat-deny', 'create a ticket: forbidden');
    const chunks = await reader.rest();
    expect(chunks.some((chunk) => chunk.type === 'tool-approval-request')).toBe(false);
    const output = chunks.find((chunk) => chunk.type === 'tool-output-available') as { output?: unknown };
    expect(output?.output).toMatchObject({ denied: true, reason: 'policy' });
    // Nobody declined it: the reply says the policy does not allow it.
    expect(reader.text()).toContain('approval policy does not allow');
    expect(await ticketTitles()).toEqual([]);
    await expect.poll(async () => (await auditRows()).rows[0]?.outcome).toBe('denied');
    expect((await auditRows()).rows[0]?.detail).toMatchObject({ policy: true, rule: expect.any(String) });
  });

  it('needs two supervisors for a big refund; the same supervisor twice counts once; the reply follows', async () => {
    const reader = await sendToChat('chat-two', 'create a ticket: big refund');
    const request = await reader.until('tool-approval-request');
    // The turn parks: the role steps wait hours, not for the requester watching.
    expect((await reader.rest()).some((chunk) => chunk.type === 'tool-output-available')).toBe(false);

    const before = await readApprovalAs<View>(request.approvalId, defaultTestCookie());
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({
      approvalId: request.approvalId,
      chatId: 'chat-two',
      tool: 'createTicket',
      status: 'pending',
      steps: [
        { kind: 'role', role: 'supervisor' },
        { kind: 'role', role: 'supervisor' },
      ],
    });
    expect(before.body.remainingMs).toBeGreaterThan(14_000_000);

    expect((await decideAs(request.approvalId, supervisor.cookie, true)).body).toEqual({ status: 'waiting' });
    expect((await decideAs(request.approvalId, supervisor.cookie, true)).body).toEqual({ status: 'waiting' });
    const between = await readApprovalAs<View>(request.approvalId, supervisor.cookie);
    expect(between.body.steps.filter((step) => step.decision === 'allow')).toEqual([
      { kind: 'role', role: 'supervisor', decision: 'allow', decidedBy: { name: `sup1-${engine}` } },
    ]);
    expect(await ticketTitles()).toEqual([]);

    expect((await decideAs(request.approvalId, second.cookie, true)).body).toMatchObject({
      status: 'approved',
    });
    expect(await ticketTitles()).toEqual(['big refund']);
    await expect
      .poll(async () => (await lastSavedMessage('chat-two'))?.parts.some((part) => part.type === 'text'))
      .toBe(true);
    const executed = (await auditRows()).rows.find((row) => row.outcome === 'executed');
    expect(executed?.detail).toMatchObject({
      deciders: expect.arrayContaining([supervisor.id, second.id]),
      rule: expect.any(String),
      waitMs: expect.any(Number),
    });
  });

  it('ends approved exactly once when the two steps are decided at the same moment', async () => {
    const reader = await sendToChat('chat-race', 'create a ticket: big refund');
    const request = await reader.until('tool-approval-request');
    await reader.rest();
    const results = await Promise.all([
      decideAs(request.approvalId, supervisor.cookie, true),
      decideAs(request.approvalId, second.cookie, true),
    ]);
    expect(results.map((result) => result.body.status).sort()).toEqual(['approved', 'waiting']);
    expect(await ticketTitles()).toEqual(['big refund']);
  });

  it('lets the requester who holds the role deny but not fill the role step', async () => {
    const requester = await signUpWithRole(`req-${engine}@example.com`, 'supervisor');
    const reader = await sendToChat('chat-own', 'create a ticket: small refund', requester.cookie);
    const request = await reader.until('tool-approval-request');
    await reader.rest();
    expect((await decideAs(request.approvalId, requester.cookie, true)).status).toBe(404);
    const seen = await readApprovalAs<View>(request.approvalId, requester.cookie);
    expect(seen.status).toBe(200);
    expect(seen.body.steps).toEqual([{ kind: 'role', role: 'supervisor' }]);
    expect((await decideAs(request.approvalId, requester.cookie, false)).body).toMatchObject({
      status: 'denied',
    });
    expect((await decideAs(request.approvalId, supervisor.cookie, true)).status).toBe(404);
    expect(await ticketTitles(requester.cookie)).toEqual([]);
  });

  it('answers 404 to anyone else, and to an approver whose role was revoked', async () => {
    const reader = await sendToChat('chat-others', 'create a ticket: small refund');
    const request = await reader.until('tool-approval-request');
    await reader.rest();
    const stranger = await signInGuest();
    const plain = await signUpWithRole(`plain-${engine}@example.com`);
    for (const cookie of [stranger, plain.cookie]) {
      expect((await readApprovalAs<View>(request.approvalId, cookie)).status).toBe(404);
      expect((await decideAs(request.approvalId, cookie, true)).status).toBe(404);
      expect((await inbox(cookie)).body.approvals).toEqual([]);
    }
    expect((await readApprovalAs<View>('no-such-approval', supervisor.cookie)).status).toBe(404);
    await revokeRoleOf(supervisor.id, 'supervisor');
    expect((await readApprovalAs<View>(request.approvalId, supervisor.cookie)).status).toBe(404);
    expect((await decideAs(request.approvalId, supervisor.cookie, true)).status).toBe(404);
    expect((await decideAs(request.approvalId, second.cookie, true)).body).toMatchObject({
      status: 'approved',
    });
  });

  it('asks the requester first and then a supervisor when a rule lists both', async () => {
    const reader = await sendToChat('chat-both', 'create a ticket: both');
    const request = await reader.until('tool-approval-request');
    await reader.rest();
    expect((await decideAs(request.approvalId, supervisor.cookie, true)).body).toEqual({ status: 'waiting' });
    expect((await decideAs(request.approvalId, defaultTestCookie(), true)).body).toMatchObject({
      status: 'approved',
    });
    expect(await ticketTitles()).toEqual(['both']);
  });

  it('lets "allow for this chat" stand in only for a requester step: a call that needs a supervisor still asks', async () => {
    const first = await sendToChat('chat-remember', 'create a ticket: both');
    const asked = await first.until('tool-approval-request');
    await first.rest();
    expect((await decideAs(asked.approvalId, defaultTestCookie(), true, { remember: 'chat' })).body).toEqual({
      status: 'waiting',
    });
    expect((await decideAs(asked.approvalId, supervisor.cookie, true)).body).toMatchObject({
      status: 'approved',
    });
    const again = await sendToChat('chat-remember', 'create a ticket: both');
    const chunks = await again.rest();
    expect(chunks.some((chunk) => chunk.type === 'tool-approval-request')).toBe(true);
    expect(await ticketTitles()).toEqual(['both']);
  });

  it('lists what a supervisor can decide now, oldest first, with the message that led to it, a page at a time', async () => {
    const ids: string[] = [];
    for (const chatId of ['chat-list-1', 'chat-list-2', 'chat-list-3']) {
      const reader = await sendToChat(chatId, 'create a ticket: small refund');
      ids.push((await reader.until('tool-approval-request')).approvalId);
      await reader.rest();
    }
    const first = await inbox(supervisor.cookie, '?limit=2');
    expect(first.body.approvals.map((item) => item.approvalId)).toEqual(ids.slice(0, 2));
    expect(first.body.approvals[0]?.chatExcerpt).toBe('create a ticket: small refund');
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const next = await inbox(supervisor.cookie, `?limit=2&cursor=${first.body.nextCursor}`);
    expect(next.body.approvals.map((item) => item.approvalId)).toEqual(ids.slice(2));
    expect(next.body.nextCursor).toBeNull();
    await decideAs(ids[0] as string, supervisor.cookie, true);
    expect((await inbox(supervisor.cookie)).body.approvals.map((item) => item.approvalId)).toEqual(
      ids.slice(1),
    );
    expect((await inbox(supervisor.cookie, '?limit=500')).status).toBe(400);
    expect((await inbox(supervisor.cookie, '?cursor=nonsense')).status).toBe(400);
  });

  it('refuses an edit that would need other approvers, and the call keeps waiting', async () => {
    const reader = await sendToChat('chat-edit', 'create a ticket: printer');
    const request = await reader.until('tool-approval-request');
    const edited = await decideAs(request.approvalId, defaultTestCookie(), true, {
      input: { title: 'big refund' },
    });
    expect(edited.status).toBe(400);
    expect(edited.body).toMatchObject({
      error: expect.stringMatching(/other approvers/),
      code: 'needs_other_approvers',
    });
    const refused = await decideAs(request.approvalId, defaultTestCookie(), true, {
      input: { title: 'forbidden' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'policy_refuses_input',
      params: { label: expect.any(String) },
    });
    expect((await readApprovalAs<View>(request.approvalId, defaultTestCookie())).body.status).toBe('pending');
    expect(
      (await decideAs(request.approvalId, defaultTestCookie(), true, { input: { title: 'printer 2' } })).body,
    ).toMatchObject({
      status: 'approved',
    });
    await reader.rest();
    expect(await ticketTitles()).toEqual(['printer 2']);
  });

  it('refuses an allow given to an input another approver has since edited: 409 stale, nothing decided', async () => {
    const reader = await sendToChat('chat-stale', 'create a ticket: big refund');
    const request = await reader.until('tool-approval-request');
    await reader.rest();
    const seenByA = (await readApprovalAs<View>(request.approvalId, supervisor.cookie)).body;
    // The card in the chat carries the same digest as the view.
    expect(
      (request as { approvalDescriptor?: { inputDigest?: string } }).approvalDescriptor?.inputDigest,
    ).toBe(seenByA.inputDigest);
    expect(seenByA.inputDigest).toMatch(/^[0-9a-f]{64}$/);
    expect((await inbox(supervisor.cookie)).body.approvals[0]?.inputDigest).toBe(seenByA.inputDigest);

    const edit = { input: { title: 'big refund', detail: 'edited by B' }, inputDigest: seenByA.inputDigest };
    expect((await decideAs(request.approvalId, second.cookie, true, edit)).body).toEqual({
      status: 'waiting',
    });
    const stale = await decideAs(request.approvalId, supervisor.cookie, true, {
      inputDigest: seenByA.inputDigest,
    });
    expect(stale).toEqual({ status: 409, body: { error: 'stale' } });
    const after = (await readApprovalAs<View>(request.approvalId, supervisor.cookie)).body;
    expect(after.status).toBe('pending');
    expect(after.steps.filter((step) => step.decision === 'allow')).toHaveLength(1);
    expect(after.inputDigest).not.toBe(seenByA.inputDigest);
    // A stale deny decides nothing either; a bad digest is a malformed body.
    expect(
      (await decideAs(request.approvalId, supervisor.cookie, false, { inputDigest: seenByA.inputDigest }))
        .status,
    ).toBe(409);
    expect((await decideAs(request.approvalId, supervisor.cookie, true, { inputDigest: 'ABC' })).status).toBe(
      400,
    );
    expect(await ticketTitles()).toEqual([]);

    expect(
      (await decideAs(request.approvalId, supervisor.cookie, true, { inputDigest: after.inputDigest })).body,
    ).toMatchObject({ status: 'approved' });
    expect(await ticketTitles()).toEqual(['big refund']);
  });

  it('answers 404, as for an unknown id, to someone who may not decide, whatever input they send', async () => {
    const reader = await sendToChat('chat-probe', 'create a ticket: small refund');
    const request = await reader.until('tool-approval-request');
    await reader.rest();
    const plain = await signUpWithRole(`probe-${engine}@example.com`);
    const unknown = await decideAs('no-such-approval', plain.cookie, true, { input: { title: 'x' } });
    for (const input of [{ title: '' }, { title: 'forbidden' }, { title: 'big refund' }, { title: 'ok' }]) {
      const answer = await decideAs(request.approvalId, plain.cookie, true, { input });
      expect(answer).toEqual(unknown);
    }
    expect(unknown.status).toBe(404);
    // An approver who may decide still gets the schema's and the policy's reasons.
    expect(
      (await decideAs(request.approvalId, supervisor.cookie, true, { input: { title: '' } })).status,
    ).toBe(400);
    expect((await readApprovalAs<View>(request.approvalId, supervisor.cookie)).body.status).toBe('pending');
  });

  it('tells the requester’s page and the approver’s page of each step, as server-sent events; 404 for others', async () => {
    const reader = await sendToChat('chat-events', 'create a ticket: big refund');
    const request = await reader.until('tool-approval-request');
    await reader.rest();
    const stranger = await signInGuest();
    expect((await openApprovalEvents('chatId=chat-events', stranger)).response.status).toBe(404);
    expect((await openApprovalEvents(`approvalId=${request.approvalId}`, stranger)).response.status).toBe(
      404,
    );
    expect((await openApprovalEvents('nothing=1', defaultTestCookie())).response.status).toBe(400);

    const requesterPage = await openApprovalEvents('chatId=chat-events', defaultTestCookie());
    const approverPage = await openApprovalEvents(`approvalId=${request.approvalId}`, second.cookie);
    expect(requesterPage.response.headers.get('content-type')).toBe('text/event-stream');
    const firstEvent = async (response: Response) => {
      const text = response.body?.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      while (!buffer.includes('data: ')) {
        const next = await text?.read();
        if (next === undefined || next.done) throw new Error(`the stream ended before an event: ${buffer}`);
        buffer += next.value;
      }
      return JSON.parse(
        buffer.slice(buffer.indexOf('data: ') + 6, buffer.indexOf('\n', buffer.indexOf('data: '))),
      );
    };
    const [forRequester, forApprover] = [
      firstEvent(requesterPage.response),
      firstEvent(approverPage.response),
    ];
    expect((await decideAs(request.approvalId, supervisor.cookie, true)).body).toEqual({ status: 'waiting' });
    const expected = { type: 'changed', approvalId: request.approvalId, chatId: 'chat-events' };
    expect(await forRequester).toEqual(expected);
    expect(await forApprover).toEqual(expected);
    requesterPage.controller.abort();
    approverPage.controller.abort();
  });

  it('takes the deadline from the rule: a short one expires, audited, and a late allow answers 404', async () => {
    const reader = await sendToChat('chat-hurry', 'create a ticket: hurry');
    const request = await reader.until('tool-approval-request');
    await reader.rest();
    const seen = await readApprovalAs<View>(request.approvalId, supervisor.cookie);
    expect(seen.body.remainingMs).toBeLessThanOrEqual(1500);
    await expect
      .poll(async () => (await readApprovalAs<View>(request.approvalId, supervisor.cookie)).body.status, {
        timeout: 8_000,
      })
      .toBe('expired');
    expect((await decideAs(request.approvalId, supervisor.cookie, true)).status).toBe(404);
    expect((await auditRows()).rows.map((row) => row.outcome)).toContain('timeout');
  });
});

const supervisorPassword = 'a long unusual passphrase for tests';
const bigRefund = 'refund $80 on A1002, it arrived broken';

async function userIdOf(cookie: string): Promise<string> {
  return (await getSessionUser(new Headers({ cookie })))?.id as string;
}

async function refundsOf(userId: string) {
  return listRefunds(await getDb(), { userId });
}

describe.each(databaseEngines)('a guest asking for a supervisor on %s', (engine) => {
  let supervisor: { cookie: string; id: string };
  let second: { cookie: string; id: string };

  beforeEach(async () => {
    await configureServerOn(engine, { TOOLGATE_POLICY: writePolicyFile(), TOOLGATE_PARK_AFTER_MS: '50' });
    supervisor = await signUpWithRole(`sup1-${engine}@example.com`, 'supervisor');
    second = await signUpWithRole(`sup2-${engine}@example.com`, 'supervisor');
  });

  it('gets no card but a sign-in denial the reply explains, in English and Chinese, audited; requester-only calls still ask', async () => {
    const guest = await signInGuest();
    const reader = await sendToChat('chat-guest', bigRefund, guest);
    const chunks = await reader.rest();
    expect(chunks.some((chunk) => chunk.type === 'tool-approval-request')).toBe(false);
    const output = chunks.find((chunk) => chunk.type === 'tool-output-available') as { output?: unknown };
    expect(output?.output).toMatchObject({ denied: true, reason: 'sign_in_required' });
    expect(reader.text()).toContain('Please sign in to ask a supervisor.');
    const chinese = await sendToChat('chat-guest-zh', '订单 A1002 退 80 元，收到时坏了', guest);
    await chinese.rest();
    expect(chinese.text()).toContain('请登录后再向主管申请');

    expect(await refundsOf(await userIdOf(guest))).toEqual([]);
    expect((await inbox(supervisor.cookie)).body.approvals).toEqual([]);
    const rows = (await auditRows(guest)).rows;
    expect(rows.map((row) => row.outcome)).toEqual(['denied', 'denied']);
    expect(rows[0].detail).toMatchObject({ policy: true, signInRequired: true, rule: expect.any(String) });

    // A call only its requester decides needs no known identity: the guest's card shows.
    const own = await sendToChat('chat-guest-own', 'create a ticket: printer', guest);
    expect((await own.until('tool-approval-request')).approvalId).toEqual(expect.any(String));
  });

  it('asks a supervisor for the same request once the guest has signed up and verified', async () => {
    const guest = await signInGuest();
    await (await sendToChat('chat-later', bigRefund, guest)).rest();
    const email = `newcomer-${engine}@example.com`;
    expect((await signUp(email, supervisorPassword, { cookie: guest })).response.status).toBe(200);
    const db = await getDb();
    const account = await findAccountByEmail(db, email);
    await markEmailVerified(db, account?.id as string);
    const { response, cookie } = await signIn(email, supervisorPassword, { cookie: guest });
    expect(response.status).toBe(200);

    const reader = await sendToChat('chat-later', bigRefund, cookie);
    const request = await reader.until('tool-approval-request');
    await reader.rest();
    expect((await readApprovalAs<View>(request.approvalId, cookie)).body.steps).toEqual([
      { kind: 'role', role: 'supervisor' },
    ]);
    expect((await decideAs(request.approvalId, supervisor.cookie, true)).body).toMatchObject({
      status: 'approved',
    });
    await expect.poll(async () => (await refundsOf(account?.id as string)).length).toBe(1);
  });

  it('never lets a guest who signs in as the supervisor approve their own request', async () => {
    const guest = await signInGuest();
    await (await sendToChat('chat-self', bigRefund, guest)).rest();
    // Nothing reaches the supervisor, who could otherwise allow it and then sign in as the guest.
    expect((await inbox(supervisor.cookie)).body.approvals).toEqual([]);
    const { cookie } = await signIn(`sup1-${engine}@example.com`, supervisorPassword, { cookie: guest });
    expect(await userIdOf(cookie)).toBe(supervisor.id);

    const reader = await sendToChat('chat-self', bigRefund, cookie);
    const request = await reader.until('tool-approval-request');
    await reader.rest();
    expect((await decideAs(request.approvalId, cookie, true)).status).toBe(404);
    expect((await inbox(cookie)).body.approvals).toEqual([]);
    expect((await decideAs(request.approvalId, second.cookie, true)).body).toMatchObject({
      status: 'approved',
    });
    await expect.poll(async () => (await refundsOf(supervisor.id)).length).toBe(1);
  });

  it('ends denied a request to a role a guest made earlier when the guest signs in as a supervisor, and keeps the supervisor off the requester side', async () => {
    const guest = await signInGuest();
    const guestId = await userIdOf(guest);
    // Asked before guests were refused (an older release): one step to go, and one the supervisor filled.
    const asked = async (id: string, steps: number) =>
      requestApproval(await getDb(), {
        id,
        chatId: `chat-${id}`,
        ownerId: guestId,
        messageId: `message-${id}`,
        toolCallId: `call-${id}`,
        toolName: 'issueRefund',
        worker: 'refund',
        input: { orderId: 'A1002', amount: 80, reason: 'broken' },
        expiresAt: Date.now() + 3_600_000,
        steps: Array.from({ length: steps }, () => ({ kind: 'role' as const, role: 'supervisor' })),
      });
    await asked('open', 1);
    await asked('half', 2);
    expect((await decideAs('half', supervisor.cookie, true)).body).toEqual({ status: 'waiting' });

    await signIn(`sup1-${engine}@example.com`, supervisorPassword, { cookie: guest });

    for (const approvalId of ['open', 'half']) {
      expect((await decideAs(approvalId, second.cookie, true)).status).toBe(404);
      const seen = await readApprovalAs<View>(approvalId, supervisor.cookie);
      expect(seen.body.status).toBe('denied');
    }
    // The approval the supervisor decided a step of still names the guest as its requester.
    const half = await readApprovalAs<View>('half', supervisor.cookie);
    expect(half.body.requester.name).not.toBe(`sup1-${engine}`);
    const rows = (await auditRows(supervisor.cookie)).rows as {
      outcome: string;
      detail: { note?: string };
    }[];
    expect(
      rows.filter((row) => row.detail?.note === guestRequestEndedNote).map((row) => row.outcome),
    ).toEqual(['denied', 'denied']);
  });
});
