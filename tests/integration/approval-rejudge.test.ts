import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { policyInForce } from '@/lib/policy';
import { watchPolicyFile } from '@/lib/policy/policy-store';
import { useApprovalDeliveries } from '../support/approval-deliveries';
import { signUpWithRole, writePolicyFile } from '../support/approval-policy';
import { askForApproval, decideAs, lastSavedMessage, readApprovalAs } from '../support/approval-requests';
import { setDefaultTestCookie } from '../support/chat-client';
import { listRefunds } from '../support/database-reads';
import { configureServerOn } from '../support/server-env';
import { databaseEngines } from '../support/test-database';

type Step = { kind: string; role?: string; decision?: string; decidedBy?: { name: string } };
type View = { status: string; reason?: string; policyChanged?: string; steps: Step[] };
type Account = { cookie: string; id: string };

const bigRefund = 'refund $80 on A1002, it arrived broken';

/** A policy whose one rule asks `approvers` for every refund. */
function refundsAsk(...approvers: unknown[]) {
  return { roles: {}, rules: [{ tool: 'issueRefund', approvers, timeoutMs: 14_400_000 }] };
}

const refundsRefused = { roles: {}, rules: [{ tool: 'issueRefund', effect: 'deny' }] };

async function auditOf(chatId: string) {
  const rows = await (await getDb())
    .selectFrom('tool_audit')
    .select(['outcome', 'detail'])
    .where('chat_id', '=', chatId)
    .execute();
  return rows.map((row) => ({ outcome: row.outcome, detail: JSON.parse(row.detail ?? '{}') }));
}

describe.each(databaseEngines)('a decision on an approval asked under an older policy, on %s', (engine) => {
  let stop: (() => void) | undefined;
  let path: string;
  let requester: Account;
  const deliveries = useApprovalDeliveries();
  afterEach(() => {
    stop?.();
  });

  /** A server whose policy file is `policy`, read again every 50 ms; the requester signed in. */
  async function serve(policy: unknown, environment: Record<string, string> = {}) {
    path = writePolicyFile(policy);
    await configureServerOn(engine, { TOOLGATE_POLICY: path, ...environment });
    stop = watchPolicyFile({ intervalMs: 50 });
    requester = await signUpWithRole(`rejudge-req-${engine}@example.com`);
    setDefaultTestCookie(requester.cookie);
  }

  /** Edits the file and waits until the server has it in force. */
  async function editPolicy(policy: unknown) {
    const before = policyInForce()?.version;
    writeFileSync(path, JSON.stringify(policy));
    await expect.poll(() => policyInForce()?.version, { timeout: 10_000 }).not.toBe(before);
  }

  const askRefund = (chatId: string) => askForApproval(chatId, bigRefund);

  const refundsOfRequester = async () => listRefunds(await getDb(), { userId: requester.id });

  it.each([
    { asked: 'the requester', park: false },
    { asked: 'a supervisor', park: true },
  ])(
    'ends denied with reason policy_changed when the policy now refuses the call (asked of $asked)',
    async ({ park }) => {
      await serve(
        refundsAsk(park ? { role: 'supervisor' } : 'requester'),
        park ? { TOOLGATE_PARK_AFTER_MS: '50' } : {},
      );
      const supervisor = await signUpWithRole(`rejudge-sup-${engine}@example.com`, 'supervisor');
      const chatId = `chat-stricter-${park ? 'role' : 'own'}`;
      const { reader, approvalId } = await askRefund(chatId);
      await editPolicy(refundsRefused);

      const decided = await decideAs(approvalId, park ? supervisor.cookie : requester.cookie, true);
      expect(decided).toMatchObject({ status: 200, body: { status: 'denied', reason: 'policy_changed' } });
      const seen = await readApprovalAs<View>(approvalId, requester.cookie);
      expect(seen.body).toMatchObject({ status: 'denied', reason: 'policy_changed' });

      // The model read the denial and said so; the refund never ran; the audit says why.
      await reader.rest();
      await expect
        .poll(async () => JSON.stringify(await lastSavedMessage(chatId)), { timeout: 15_000 })
        .toContain('The approval policy changed while this request waited');
      expect(JSON.stringify(await lastSavedMessage(chatId))).toContain('policy_changed');
      expect(await refundsOfRequester()).toEqual([]);
      await expect.poll(async () => (await auditOf(chatId)).map((row) => row.outcome)).toEqual(['denied']);
      expect((await auditOf(chatId))[0]?.detail).toMatchObject({ policyChanged: true });
    },
  );

  it('replaces the steps by looser ones: the one allow left approves and the refund runs once', async () => {
    await serve(refundsAsk({ role: 'supervisor' }, { role: 'manager' }), { TOOLGATE_PARK_AFTER_MS: '50' });
    const supervisor = await signUpWithRole(`rejudge-sup-${engine}@example.com`, 'supervisor');
    // A manager exists, so the manager's step can be filled when it is asked (else: no_approver).
    await signUpWithRole(`rejudge-mgr-${engine}@example.com`, 'manager');
    const { reader, approvalId } = await askRefund('chat-looser');
    await reader.rest();
    await editPolicy(refundsAsk({ role: 'supervisor' }));

    expect(await decideAs(approvalId, supervisor.cookie, true)).toMatchObject({
      status: 200,
      body: { status: 'approved' },
    });
    await expect.poll(async () => (await refundsOfRequester()).length, { timeout: 15_000 }).toBe(1);
    const seen = (await readApprovalAs<View>(approvalId, requester.cookie)).body;
    expect(seen.policyChanged).toEqual(expect.any(String));
    expect(seen.steps).toEqual([
      { kind: 'role', role: 'supervisor', decision: 'allow', decidedBy: { name: `rejudge-sup-${engine}` } },
    ]);
    await expect
      .poll(async () => (await auditOf('chat-looser')).map((row) => row.outcome), { timeout: 15_000 })
      .toEqual(['executed']);
    expect(await refundsOfRequester()).toHaveLength(1);
  });

  it('answers 409 policy_changed to someone whose step is gone, keeps the allow of a step that remains, mails the new role', async () => {
    await serve(refundsAsk({ role: 'supervisor' }, { role: 'manager' }), {
      TOOLGATE_PARK_AFTER_MS: '50',
      ...deliveries.mailEnvironment(),
    });
    deliveries.startMailLoops();
    const supervisor = await signUpWithRole(`rejudge-sup-${engine}@example.com`, 'supervisor');
    const manager = await signUpWithRole(`rejudge-man-${engine}@example.com`, 'manager');
    const auditor = await signUpWithRole(`rejudge-aud-${engine}@example.com`, 'auditor');
    const { reader, approvalId } = await askRefund('chat-replaced');
    await reader.rest();
    expect((await decideAs(approvalId, supervisor.cookie, true)).body).toEqual({ status: 'waiting' });
    await editPolicy(refundsAsk({ role: 'supervisor' }, { role: 'auditor' }));

    expect(await decideAs(approvalId, manager.cookie, true)).toEqual({
      status: 409,
      body: { error: 'policy_changed' },
    });
    const seen = (await readApprovalAs<View>(approvalId, requester.cookie)).body;
    expect(seen).toMatchObject({ status: 'pending', policyChanged: expect.any(String) });
    expect(seen.steps).toEqual([
      { kind: 'role', role: 'supervisor', decision: 'allow', decidedBy: { name: `rejudge-sup-${engine}` } },
      { kind: 'role', role: 'auditor' },
    ]);
    // The manager has no part in it any more: not even its view.
    expect((await readApprovalAs(approvalId, manager.cookie)).status).toBe(404);
    expect(await refundsOfRequester()).toEqual([]);

    // The new role's holder is told as at a request; nobody is mailed twice.
    await expect
      .poll(() => deliveries.mailEventsOf(approvalId), { timeout: 15_000 })
      .toEqual([
        `rejudge-aud-${engine}@example.com approval.mail.requested`,
        `rejudge-man-${engine}@example.com approval.mail.requested`,
        `rejudge-sup-${engine}@example.com approval.mail.requested`,
      ]);

    expect((await decideAs(approvalId, auditor.cookie, true)).body).toMatchObject({ status: 'approved' });
    await expect.poll(async () => (await refundsOfRequester()).length, { timeout: 15_000 }).toBe(1);
  });

  it('approves the call when the allows kept fill every new step: 200 approved, reason policy_changed', async () => {
    await serve(refundsAsk({ role: 'supervisor' }, { role: 'manager' }), { TOOLGATE_PARK_AFTER_MS: '50' });
    const supervisor = await signUpWithRole(`rejudge-sup-${engine}@example.com`, 'supervisor');
    const manager = await signUpWithRole(`rejudge-man-${engine}@example.com`, 'manager');
    const { reader, approvalId } = await askRefund('chat-kept');
    await reader.rest();
    expect((await decideAs(approvalId, supervisor.cookie, true)).body).toEqual({ status: 'waiting' });
    await editPolicy(refundsAsk({ role: 'supervisor' }));

    expect(await decideAs(approvalId, manager.cookie, true)).toMatchObject({
      status: 200,
      body: { status: 'approved', reason: 'policy_changed' },
    });
    await expect.poll(async () => (await refundsOfRequester()).length, { timeout: 15_000 }).toBe(1);
  });

  it.each([
    { who: 'the second supervisor', bySupervisor: true },
    { who: 'the requester', bySupervisor: false },
  ])(
    'ends denied with the reason and name of $who who pressed Deny, though the new policy would approve the call',
    async ({ bySupervisor }) => {
      await serve(refundsAsk({ role: 'supervisor' }, { role: 'supervisor' }), {
        TOOLGATE_PARK_AFTER_MS: '50',
      });
      const first = await signUpWithRole(`rejudge-sup1-${engine}@example.com`, 'supervisor');
      const second = await signUpWithRole(`rejudge-sup2-${engine}@example.com`, 'supervisor');
      const chatId = `chat-deny-${bySupervisor ? 'sup' : 'req'}`;
      const { reader, approvalId } = await askRefund(chatId);
      await reader.rest();
      expect((await decideAs(approvalId, first.cookie, true)).body).toEqual({ status: 'waiting' });
      // One supervisor's allow would now be enough.
      await editPolicy(refundsAsk({ role: 'supervisor' }));

      const denier = bySupervisor ? second : requester;
      const reason = 'this looks like fraud';
      expect(await decideAs(approvalId, denier.cookie, false, { reason })).toMatchObject({
        status: 200,
        body: { status: 'denied' },
      });
      const seen = (await readApprovalAs<View>(approvalId, requester.cookie)).body;
      expect(seen).toMatchObject({ status: 'denied', reason: 'denied' });
      if (bySupervisor) {
        expect(seen.steps).toContainEqual({
          kind: 'role',
          role: 'supervisor',
          decision: 'deny',
          decidedBy: { name: `rejudge-sup2-${engine}` },
        });
      }
      // The model read the person's reason; the refund never ran.
      await expect
        .poll(async () => JSON.stringify(await lastSavedMessage(chatId)), { timeout: 15_000 })
        .toContain(reason);
      await expect.poll(async () => (await auditOf(chatId)).map((row) => row.outcome)).toEqual(['denied']);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await refundsOfRequester()).toEqual([]);
    },
  );

  it('settles a call approved by a re-judge only for an allow: a deny by someone with no step left changes nothing', async () => {
    await serve(refundsAsk({ role: 'supervisor' }, { role: 'manager' }), { TOOLGATE_PARK_AFTER_MS: '50' });
    const supervisor = await signUpWithRole(`rejudge-sup-${engine}@example.com`, 'supervisor');
    const other = await signUpWithRole(`rejudge-sup2-${engine}@example.com`, 'supervisor');
    // The manager step must be one somebody can fill, or the call is refused at once (no_approver).
    await signUpWithRole(`rejudge-mgr-${engine}@example.com`, 'manager');
    const { reader, approvalId } = await askRefund('chat-deny-nobody');
    await reader.rest();
    expect((await decideAs(approvalId, supervisor.cookie, true)).body).toEqual({ status: 'waiting' });
    await editPolicy(refundsAsk({ role: 'supervisor' }));

    // Another supervisor may see the call but holds no step of it: their "no" neither decides nor approves it.
    expect((await decideAs(approvalId, other.cookie, false, { reason: 'no' })).status).toBe(404);
    expect((await readApprovalAs<View>(approvalId, requester.cookie)).body.status).toBe('pending');
    expect(await refundsOfRequester()).toEqual([]);
  });

  it('re-judges once when two people decide at the same moment under a changed policy', async () => {
    await serve(refundsAsk({ role: 'supervisor' }), { TOOLGATE_PARK_AFTER_MS: '50' });
    const first = await signUpWithRole(`rejudge-sup1-${engine}@example.com`, 'supervisor');
    const second = await signUpWithRole(`rejudge-sup2-${engine}@example.com`, 'supervisor');
    const { reader, approvalId } = await askRefund('chat-race');
    await reader.rest();
    await editPolicy(refundsRefused);

    const answers = await Promise.all([
      decideAs(approvalId, first.cookie, true),
      decideAs(approvalId, second.cookie, true),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 404]);
    expect(answers.find((answer) => answer.status === 200)?.body).toMatchObject({
      status: 'denied',
      reason: 'policy_changed',
    });
    await expect.poll(async () => (await auditOf('chat-race')).length, { timeout: 15_000 }).toBe(1);
    const row = await (await getDb())
      .selectFrom('approvals')
      .select(['version', 'policy_version'])
      .where('id', '=', approvalId)
      .executeTakeFirstOrThrow();
    // One lock taken, one version update: the loser found the call settled.
    expect(Number(row.version)).toBe(1);
    expect(row.policy_version).toBe(policyInForce()?.version);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await auditOf('chat-race')).toHaveLength(1);
    expect(await refundsOfRequester()).toEqual([]);
  });
});
