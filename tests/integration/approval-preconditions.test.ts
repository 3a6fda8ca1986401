import { beforeEach, describe, expect, it } from 'vitest';
import { GET as listApprovals } from '@/app/api/approvals/route';
import { getDb } from '@/lib/db';
import { useApprovalDeliveries } from '../support/approval-deliveries';
import { signUpWithRole, writePolicyFile } from '../support/approval-policy';
import { decideAs, lastSavedMessage, sendToChat } from '../support/approval-requests';
import { getRequest, setDefaultTestCookie } from '../support/chat-client';
import { listRefunds } from '../support/database-reads';
import { configureServerOn } from '../support/server-env';
import { databaseEngines } from '../support/test-database';

/** Every refund asks two supervisors: a request that reaches anyone shows up in their inbox. */
const refundsAskTwoSupervisors = {
  roles: {},
  rules: [
    {
      tool: 'issueRefund',
      approvers: [{ role: 'supervisor' }, { role: 'supervisor' }],
      timeoutMs: 14_400_000,
    },
  ],
};

describe.each(databaseEngines)('a refund that cannot succeed asks nobody, on %s', (engine) => {
  let supervisor: { cookie: string; id: string };
  let requester: { cookie: string; id: string };
  const deliveries = useApprovalDeliveries();

  beforeEach(async () => {
    await configureServerOn(engine, {
      TOOLGATE_POLICY: writePolicyFile(refundsAskTwoSupervisors),
      TOOLGATE_PARK_AFTER_MS: '50',
      ...deliveries.mailEnvironment(),
      ...deliveries.webhookEnvironment(),
    });
    supervisor = await signUpWithRole(`pre-sup1-${engine}@example.com`, 'supervisor');
    await signUpWithRole(`pre-sup2-${engine}@example.com`, 'supervisor');
    requester = await signUpWithRole(`pre-req-${engine}@example.com`);
    setDefaultTestCookie(requester.cookie);
  });

  async function inbox() {
    const response = await listApprovals(getRequest('/api/approvals', { cookie: supervisor.cookie }));
    return ((await response.json()) as { approvals: unknown[] }).approvals;
  }

  async function approvalRows() {
    return (await getDb()).selectFrom('approvals').select('id').execute();
  }

  it.each([
    {
      asked: 'more than what is left',
      text: 'refund $600 on A1002, it arrived broken',
      reason: 'exceeds_remaining',
      said: /only 520\.00 USD is left on A1002/,
      reply: /at most 520\.00 USD is left/,
    },
    {
      asked: 'yuan on a USD order',
      text: '订单 A1002 退 80 元，收到时坏了',
      reason: 'currency_mismatch',
      said: /paid in USD, not CNY/,
      reply: /USD/,
    },
  ])(
    'refuses $asked before a card, an inbox item or a mail; the model and the reply say what would work',
    async ({ text, reason, said, reply }) => {
      const reader = await sendToChat('chat-pre', text);
      const chunks = await reader.rest();
      expect(chunks.some((chunk) => chunk.type === 'tool-approval-request')).toBe(false);
      const output = chunks.find((chunk) => chunk.type === 'tool-output-available') as
        | { output: { refused?: boolean; reason?: string; message?: string; precondition?: boolean } }
        | undefined;
      expect(output?.output).toMatchObject({ refused: true, reason, precondition: true });
      expect(output?.output.message).toMatch(said);
      expect(reader.text()).toMatch(reply);

      // Nobody was asked: no approval row, nothing in the inbox, no mail, no webhook; nothing refunded.
      expect(await approvalRows()).toEqual([]);
      expect(await inbox()).toEqual([]);
      const outbox = await (await getDb()).selectFrom('webhook_delivery').select('event_type').execute();
      expect(outbox).toEqual([]);
      expect(await listRefunds(await getDb(), { userId: requester.id })).toEqual([]);
      expect(JSON.stringify(await lastSavedMessage('chat-pre'))).not.toContain('approval-requested');

      const audit = await (await getDb())
        .selectFrom('tool_audit')
        .select(['outcome', 'detail'])
        .where('chat_id', '=', 'chat-pre')
        .execute();
      expect(audit.map((row) => [row.outcome, JSON.parse(row.detail ?? '{}').precondition])).toEqual([
        ['denied', reason],
      ]);
    },
  );

  it('still asks the supervisors for a refund that fits what is left, and refuses their edit to more (400, still waiting)', async () => {
    const reader = await sendToChat('chat-fits', 'refund $80 on A1002, it arrived broken');
    const { approvalId } = await reader.until('tool-approval-request');
    expect(await inbox()).toHaveLength(1);
    const edited = await decideAs(approvalId, supervisor.cookie, true, {
      input: { orderId: 'A1002', amount: 600, reason: 'it arrived broken' },
    });
    expect(edited.status).toBe(400);
    expect(edited.body.error).toMatch(/only 520\.00 USD is left on A1002/);
    // The same reason as a code and its figures, for a card in another language.
    expect(edited.body).toMatchObject({
      code: 'exceeds_remaining',
      params: { orderId: 'A1002', remaining: '520', currency: 'USD' },
    });
    expect(await inbox()).toHaveLength(1);
    await reader.leave();
  });
});
