import { beforeEach, describe, expect, it } from 'vitest';
import { useApprovalDeliveries } from '../support/approval-deliveries';
import { signUpWithRole, writePolicyFile } from '../support/approval-policy';
import { askForApproval, decideAs } from '../support/approval-requests';
import { defaultTestCookie, setDefaultTestCookie } from '../support/chat-client';
import { configureServerOn } from '../support/server-env';
import { databaseEngines } from '../support/test-database';

describe.each(databaseEngines)('the approval webhook, from the approval life cycle, on %s', (engine) => {
  const deliveries = useApprovalDeliveries({ secret: 'wiring-webhook-test-secret-0123456789' });
  const bodies = () => deliveries.receiver.received.map((webhook) => JSON.parse(webhook.body));

  let supervisor: { cookie: string; id: string };

  beforeEach(async () => {
    deliveries.receiver.received.length = 0;
    await configureServerOn(engine, {
      TOOLGATE_POLICY: writePolicyFile(),
      TOOLGATE_PARK_AFTER_MS: '50',
      ...deliveries.webhookEnvironment(),
    });
    deliveries.startWebhookLoop();
    // Only a signed-in, verified user may ask a supervisor: the requester of these tests is one.
    setDefaultTestCookie((await signUpWithRole(`hook-req-${engine}@example.com`)).cookie);
    // A supervisor exists before anything is asked: a step nobody can fill is refused at once.
    supervisor = await signUpWithRole(`hook-sup-${engine}@example.com`, 'supervisor');
  });

  it('sends approval.requested when a call needs a supervisor, and approval.settled with the decision', async () => {
    const { approvalId } = await askForApproval('chat-hook', 'create a ticket: small refund');
    await expect
      .poll(() => bodies().map((body) => body.type), { timeout: 20_000 })
      .toEqual(['approval.requested']);
    expect(bodies()[0]).toMatchObject({
      approvalId,
      tool: 'createTicket',
      roles: ['supervisor'],
      summary: expect.stringContaining('small refund'),
      url: expect.stringMatching(new RegExp(`/approvals/${approvalId}$`)),
    });
    const decided = await decideAs(approvalId, supervisor.cookie, true);
    expect(decided.body).toMatchObject({ status: 'approved' });
    await expect
      .poll(() => bodies().map((body) => body.type), { timeout: 20_000 })
      .toEqual(['approval.requested', 'approval.settled']);
    expect(bodies()[1]).toMatchObject({ approvalId, status: 'approved', roles: ['supervisor'] });
  });

  it('sends approval.settled with status expired when nobody decides in time', async () => {
    const { approvalId } = await askForApproval('chat-late', 'create a ticket: hurry');
    await expect
      .poll(() => bodies().map((body) => [body.type, body.status]), { timeout: 20_000 })
      .toEqual([
        ['approval.requested', undefined],
        ['approval.settled', 'expired'],
      ]);
    expect(bodies()[1]).toMatchObject({ approvalId });
  });

  it('sends nothing for a call only its requester decides', async () => {
    const { approvalId, reader } = await askForApproval('chat-plain', 'create a ticket: printer on fire');
    const decided = await decideAs(approvalId, defaultTestCookie(), false);
    expect(decided.body).toMatchObject({ status: 'denied' });
    await reader.rest();
    // A call with a role step, asked afterwards, arrives alone: nothing came before it.
    const { approvalId: later } = await askForApproval('chat-after', 'create a ticket: small refund');
    await expect.poll(() => bodies().map((body) => body.approvalId), { timeout: 20_000 }).toEqual([later]);
  });
});
