import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { GET as decidedByMe } from '@/app/api/approvals/decided/route';
import { policyInForce } from '@/lib/policy';
import { watchPolicyFile } from '@/lib/policy/policy-store';
import { signUpWithRole, writePolicyFile } from '../support/approval-policy';
import { askForApproval, decideAs, readApprovalAs } from '../support/approval-requests';
import { getRequest, setDefaultTestCookie } from '../support/chat-client';
import { configureServerOn } from '../support/server-env';
import { databaseEngines } from '../support/test-database';

type Outcome = { status: string; result?: { refundId?: string } };
type Decided = {
  approvalId: string;
  status: string;
  reason?: string;
  outcome?: Outcome;
  myDecision: string;
};
type Account = { cookie: string; id: string };

const refundsAskASupervisor = {
  roles: {},
  rules: [{ tool: 'issueRefund', approvers: [{ role: 'supervisor' }], timeoutMs: 14_400_000 }],
};
const refundsRefused = { roles: {}, rules: [{ tool: 'issueRefund', effect: 'deny' }] };

async function decidedBy(cookie: string): Promise<Decided[]> {
  const response = await decidedByMe(getRequest('/api/approvals/decided', { cookie }));
  expect(response.status).toBe(200);
  return ((await response.json()) as { approvals: Decided[] }).approvals;
}

describe.each(databaseEngines)('what an approver’s click did, on %s', (engine) => {
  let stop: (() => void) | undefined;
  let path: string;
  let supervisor: Account;
  let second: Account;
  afterEach(() => stop?.());

  async function serve() {
    path = writePolicyFile(refundsAskASupervisor);
    await configureServerOn(engine, { TOOLGATE_POLICY: path, TOOLGATE_PARK_AFTER_MS: '50' });
    stop = watchPolicyFile({ intervalMs: 50 });
    supervisor = await signUpWithRole(`outcome-sup1-${engine}@example.com`, 'supervisor');
    second = await signUpWithRole(`outcome-sup2-${engine}@example.com`, 'supervisor');
    setDefaultTestCookie((await signUpWithRole(`outcome-req-${engine}@example.com`)).cookie);
  }

  it('answers an Allow with the call’s result, and lists it as executed with that result in “decided by me”', async () => {
    await serve();
    const { approvalId, reader } = await askForApproval('chat-ran', 'refund $80 on A1002, it arrived broken');
    const decided = await decideAs(approvalId, supervisor.cookie, true);
    expect(decided.status).toBe(200);
    expect(decided.body).toMatchObject({
      status: 'approved',
      outcome: { status: 'executed', result: { refundId: expect.stringMatching(/^RF-\d{6}$/) } },
    });
    const refundId = (decided.body.outcome as Outcome).result?.refundId;
    const [item] = await decidedBy(supervisor.cookie);
    expect(item).toMatchObject({
      approvalId,
      myDecision: 'allow',
      status: 'executed',
      outcome: { status: 'executed', result: { refundId } },
    });
    // The second supervisor, too late, is told what happened instead of a bare 404.
    const late = await decideAs(approvalId, second.cookie, true);
    expect(late).toMatchObject({
      status: 404,
      body: { status: 'executed', outcome: { status: 'executed', result: { refundId } } },
    });
    await reader.rest();
  });

  it('lists an Allow the policy in force turned into a denial, with its reason and outcome', async () => {
    await serve();
    const { approvalId, reader } = await askForApproval(
      'chat-rejudged',
      'refund $80 on A1002, it arrived broken',
    );
    const before = policyInForce()?.version;
    writeFileSync(path, JSON.stringify(refundsRefused));
    await expect.poll(() => policyInForce()?.version, { timeout: 10_000 }).not.toBe(before);

    const decided = await decideAs(approvalId, supervisor.cookie, true);
    expect(decided).toMatchObject({
      status: 200,
      body: { status: 'denied', reason: 'policy_changed', outcome: { status: 'denied' } },
    });
    const [item] = await decidedBy(supervisor.cookie);
    expect(item).toMatchObject({
      approvalId,
      myDecision: 'allow',
      status: 'denied',
      reason: 'policy_changed',
      outcome: { status: 'denied' },
    });
    expect(await decidedBy(second.cookie)).toEqual([]);
    await reader.rest();
  });

  it('tells each reader of an approval what they themselves decided: deny, allow, or an edit they allowed', async () => {
    await serve();
    type Viewer = { viewer: { decided?: string }; inputDigest: string };
    const denied = await askForApproval('chat-mine-deny', 'refund $80 on A1002, it arrived broken');
    expect((await decideAs(denied.approvalId, supervisor.cookie, false)).status).toBe(200);
    await denied.reader.rest();
    expect((await readApprovalAs<Viewer>(denied.approvalId, supervisor.cookie)).body.viewer.decided).toBe(
      'deny',
    );
    // The other supervisor decided nothing: the page names the denier to them instead.
    expect((await readApprovalAs<Viewer>(denied.approvalId, second.cookie)).body.viewer).not.toHaveProperty(
      'decided',
    );

    const edited = await askForApproval('chat-mine-edit', 'refund $80 on A1002, it arrived broken');
    const seen = (
      await readApprovalAs<Viewer & { input: Record<string, unknown> }>(edited.approvalId, second.cookie)
    ).body;
    const answer = await decideAs(edited.approvalId, second.cookie, true, {
      input: { ...seen.input, amount: 70 },
      inputDigest: seen.inputDigest,
    });
    expect(answer.status).toBe(200);
    await edited.reader.rest();
    expect((await readApprovalAs<Viewer>(edited.approvalId, second.cookie)).body.viewer.decided).toBe('edit');

    const allowed = await askForApproval('chat-mine-allow', 'refund $20 on A1002, it arrived broken');
    expect((await decideAs(allowed.approvalId, supervisor.cookie, true)).status).toBe(200);
    await allowed.reader.rest();
    expect((await readApprovalAs<Viewer>(allowed.approvalId, supervisor.cookie)).body.viewer.decided).toBe(
      'allow',
    );
  });

  it('tells someone who may not see the approval nothing more than an unknown id', async () => {
    await serve();
    const { approvalId, reader } = await askForApproval(
      'chat-stranger',
      'refund $80 on A1002, it arrived broken',
    );
    expect((await decideAs(approvalId, supervisor.cookie, false)).status).toBe(200);
    const stranger = await signUpWithRole(`outcome-stranger-${engine}@example.com`);
    const answer = await decideAs(approvalId, stranger.cookie, true);
    expect(answer.status).toBe(404);
    expect(Object.keys(answer.body)).toEqual(['error']);
    await reader.rest();
  });
});
