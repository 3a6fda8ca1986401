import { beforeEach, describe, expect, it } from 'vitest';
import { watchPendingDeadlines } from '@/lib/approvals';
import { getDb } from '@/lib/db';
import { useApprovalDeliveries } from '../support/approval-deliveries';
import { signUpWithRole, testPolicy, writePolicyFile } from '../support/approval-policy';
import { askForApproval, decideAs, readApprovalAs } from '../support/approval-requests';
import { defaultTestCookie, setDefaultTestCookie } from '../support/chat-client';
import { retireDeadlineKeeper } from '../support/process-globals';
import { configureServerOn } from '../support/server-env';
import { databaseEngines } from '../support/test-database';

/**
 * A supervisor step handed to a manager after 800 ms, then waiting 20 s again; "escalate me
 * later" after 3 s, long enough for a busy test machine to stop the keeper before it is due.
 */
const policy = {
  ...testPolicy,
  rules: [
    {
      tool: 'createTicket',
      when: { title: { eq: 'escalate me' } },
      approvers: [{ role: 'supervisor' }],
      timeoutMs: 20_000,
      escalate: { afterMs: 800, to: { role: 'manager' } },
    },
    {
      tool: 'createTicket',
      when: { title: { eq: 'escalate me later' } },
      approvers: [{ role: 'supervisor' }],
      timeoutMs: 20_000,
      escalate: { afterMs: 3000, to: { role: 'manager' } },
    },
    ...testPolicy.rules,
  ],
};

type View = {
  status: string;
  expiresAt: number;
  steps: { kind: string; role?: string; escalatedTo?: string }[];
};

async function view(approvalId: string): Promise<View> {
  const { status, body } = await readApprovalAs<View>(approvalId, defaultTestCookie());
  expect(status).toBe(200);
  return body;
}

describe.each(databaseEngines)('escalation, on %s', (engine) => {
  const deliveries = useApprovalDeliveries({ secret: 'escalation-webhook-secret-0123456789' });

  beforeEach(async () => {
    await configureServerOn(engine, {
      TOOLGATE_POLICY: writePolicyFile(policy),
      TOOLGATE_PARK_AFTER_MS: '50',
      ...deliveries.mailEnvironment(),
      ...deliveries.webhookEnvironment(),
    });
    deliveries.startWebhookLoop();
    deliveries.startMailLoops();
    setDefaultTestCookie((await signUpWithRole(`esc-req-${engine}@example.com`)).cookie);
  });

  it('hands an open supervisor step to a manager once: the deadline restarts, the view, webhook, mail and audit say so', async () => {
    const supervisor = await signUpWithRole(`esc-sup-${engine}@example.com`, 'supervisor');
    const manager = await signUpWithRole(`esc-man-${engine}@example.com`, 'manager');
    const { approvalId } = await askForApproval(`chat-esc-${engine}`, 'create a ticket: escalate me');
    const asked = await view(approvalId);
    expect(asked.steps).toEqual([{ kind: 'role', role: 'supervisor' }]);

    await expect
      .poll(async () => (await view(approvalId)).steps, { timeout: 20_000 })
      .toEqual([{ kind: 'role', role: 'manager', escalatedTo: 'manager' }]);
    expect((await view(approvalId)).expiresAt).toBeGreaterThan(asked.expiresAt + 500);

    // The supervisor may no longer decide; the manager may.
    const late = await decideAs(approvalId, supervisor.cookie, true);
    expect(late.status).toBe(404);
    // Approvers: the first role's holder asked, the new role's told; the requester hears of it too.
    const approverMail = () =>
      deliveries.mailEventsOf(approvalId).filter((event) => !event.includes('.requester.'));
    await expect
      .poll(approverMail, { timeout: 20_000 })
      .toEqual([
        `esc-man-${engine}@example.com approval.mail.escalated`,
        `esc-sup-${engine}@example.com approval.mail.requested`,
      ]);
    await expect
      .poll(() => deliveries.mailEventsOf(approvalId).filter((event) => event.includes('.requester.')))
      .toEqual([`esc-req-${engine}@example.com approval.mail.requester.escalated`]);
    const decided = await decideAs(approvalId, manager.cookie, true);
    expect(decided.body).toMatchObject({ status: 'approved' });

    await expect
      .poll(
        () =>
          deliveries.receiver.received
            .map((webhook) => JSON.parse(webhook.body))
            .filter((body) => body.approvalId === approvalId)
            .map((body) => body.type),
        { timeout: 20_000 },
      )
      .toEqual(['approval.requested', 'approval.escalated', 'approval.settled']);
    const audit = await (await getDb())
      .selectFrom('tool_audit')
      .select(['outcome', 'detail'])
      .where('chat_id', '=', `chat-esc-${engine}`)
      .where('outcome', '=', 'escalated')
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0].detail ?? '{}')).toMatchObject({ escalatedTo: 'manager' });
  });

  it('escalates after a restart: the keeper of a new process finds the due row', async () => {
    await signUpWithRole(`esc-man2-${engine}@example.com`, 'manager');
    // Someone holds the asked role too: a step nobody can fill would be refused at once.
    await signUpWithRole(`esc-sup2-${engine}@example.com`, 'supervisor');
    const asked = Date.now();
    const { approvalId } = await askForApproval(
      `chat-restart-${engine}`,
      'create a ticket: escalate me later',
    );
    // The card can reach the client before the request has told the keeper: wait until it has.
    const escalateAt = async () =>
      (
        await (
          await getDb()
        )
          .selectFrom('approvals')
          .select('escalate_at')
          .where('id', '=', approvalId)
          .executeTakeFirst()
      )?.escalate_at ?? null;
    await expect.poll(escalateAt).not.toBeNull();
    await retireDeadlineKeeper();
    // Past the escalation's moment: with no keeper, nothing has happened.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, asked + 3500 - Date.now())));
    expect((await view(approvalId)).steps).toEqual([{ kind: 'role', role: 'supervisor' }]);
    await watchPendingDeadlines();
    await expect
      .poll(async () => (await view(approvalId)).steps, { timeout: 20_000 })
      .toEqual([{ kind: 'role', role: 'manager', escalatedTo: 'manager' }]);
  });
});
