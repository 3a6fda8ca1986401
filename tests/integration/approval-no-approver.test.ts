import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getDb, grantRole } from '@/lib/db';
import { useApprovalDeliveries } from '../support/approval-deliveries';
import { signUpWithRole, writePolicyFile } from '../support/approval-policy';
import { sendToChat } from '../support/approval-requests';
import { setDefaultTestCookie } from '../support/chat-client';
import { configureServerOn } from '../support/server-env';
import { databaseEngines } from '../support/test-database';

/** A 2-of-2 rule for refunds above 100, and a rule for smaller ones that asks a role nobody holds. */
const unfillable = {
  roles: {},
  rules: [
    {
      tool: 'issueRefund',
      when: { amount: { gt: 100 } },
      approvers: [{ role: 'supervisor' }, { role: 'supervisor' }],
      timeoutMs: 14_400_000,
    },
    { tool: 'issueRefund', approvers: [{ role: 'manager' }], timeoutMs: 14_400_000 },
  ],
};

describe.each(databaseEngines)('a step nobody can fill, on %s', (engine) => {
  const deliveries = useApprovalDeliveries();
  let requester: { cookie: string; id: string };
  let warn: ReturnType<typeof vi.spyOn>;

  beforeEach(async () => {
    await configureServerOn(engine, {
      TOOLGATE_POLICY: writePolicyFile(unfillable),
      TOOLGATE_PARK_AFTER_MS: '50',
      ...deliveries.webhookEnvironment(),
    });
    // One verified supervisor: a 2-of-2 rule can never finish.
    await signUpWithRole(`noapp-sup-${engine}@example.com`, 'supervisor');
    requester = await signUpWithRole(`noapp-req-${engine}@example.com`);
    setDefaultTestCookie(requester.cookie);
    warn = vi.spyOn(console, 'warn');
  });
  afterEach(() => warn.mockRestore());

  it.each([
    {
      asked: '2 of 2 supervisors with one verified supervisor',
      text: 'refund $200 on A1002, it arrived broken',
      role: 'supervisor',
    },
    { asked: 'a role nobody holds', text: 'refund $20 on A1002, it arrived broken', role: 'manager' },
  ])(
    'refuses a call that asks $asked at once with no_approver: the model, the log and the webhook are told',
    async ({ text, role }) => {
      const chatId = `chat-noapp-${role}`;
      const reader = await sendToChat(chatId, text);
      const chunks = await reader.rest();
      expect(chunks.some((chunk) => chunk.type === 'tool-approval-request')).toBe(false);
      const output = chunks.find((chunk) => chunk.type === 'tool-output-available') as
        | { output: { denied?: boolean; reason?: string } }
        | undefined;
      expect(output?.output).toMatchObject({ denied: true, reason: 'no_approver' });
      expect(reader.text()).toMatch(/Nobody can approve this request/);

      const db = await getDb();
      expect(await db.selectFrom('approvals').select('id').execute()).toEqual([]);
      const audit = await db
        .selectFrom('tool_audit')
        .select(['outcome', 'detail'])
        .where('chat_id', '=', chatId)
        .execute();
      expect(audit.map((row) => [row.outcome, JSON.parse(row.detail ?? '{}').noApprover])).toEqual([
        ['denied', true],
      ]);
      expect(warn.mock.calls.flat().join('\n')).toMatch(new RegExp(`no_approver.*"${role}"`));
      await expect
        .poll(async () =>
          (await db.selectFrom('webhook_delivery').select(['event_type', 'body']).execute()).map((row) => [
            row.event_type,
            JSON.parse(row.body).status,
            JSON.parse(row.body).roles,
          ]),
        )
        .toEqual([['approval.unfillable', 'no_approver', [role]]]);
    },
  );

  it('still asks when enough verified holders exist besides the requester', async () => {
    await signUpWithRole(`noapp-sup2-${engine}@example.com`, 'supervisor');
    const reader = await sendToChat('chat-noapp-ok', 'refund $200 on A1002, it arrived broken');
    await reader.until('tool-approval-request');
    await reader.leave();
  });
});

/** Refunds need a supervisor and a manager: two steps, so two different people. */
const supervisorAndManager = {
  roles: {},
  rules: [
    {
      tool: 'issueRefund',
      approvers: [{ role: 'supervisor' }, { role: 'manager' }],
      timeoutMs: 14_400_000,
    },
  ],
};

describe.each(databaseEngines)('two roles held by one person, on %s', (engine) => {
  const deliveries = useApprovalDeliveries();
  let both: { cookie: string; id: string };
  let warn: ReturnType<typeof vi.spyOn>;

  beforeEach(async () => {
    await configureServerOn(engine, {
      TOOLGATE_POLICY: writePolicyFile(supervisorAndManager),
      TOOLGATE_PARK_AFTER_MS: '50',
      ...deliveries.webhookEnvironment(),
    });
    // The only supervisor is also the only manager: one person fills one step of a call.
    both = await signUpWithRole(`noapp-both-${engine}@example.com`, 'supervisor');
    await grantRole(await getDb(), both.id, 'manager');
    setDefaultTestCookie((await signUpWithRole(`noapp-both-req-${engine}@example.com`)).cookie);
    warn = vi.spyOn(console, 'warn');
  });
  afterEach(() => warn.mockRestore());

  it('refuses a supervisor-and-manager call at once with no_approver when one person holds both roles', async () => {
    const reader = await sendToChat('chat-noapp-both', 'refund $20 on A1002, it arrived broken');
    const chunks = await reader.rest();
    expect(chunks.some((chunk) => chunk.type === 'tool-approval-request')).toBe(false);
    const output = chunks.find((chunk) => chunk.type === 'tool-output-available') as
      | { output: { denied?: boolean; reason?: string } }
      | undefined;
    expect(output?.output).toMatchObject({ denied: true, reason: 'no_approver' });
    const db = await getDb();
    expect(await db.selectFrom('approvals').select('id').execute()).toEqual([]);
    expect(warn.mock.calls.flat().join('\n')).toMatch(
      /no_approver.*"manager" and "supervisor" \(2 different people needed, 1 verified holder/,
    );
    await expect
      .poll(async () =>
        (await db.selectFrom('webhook_delivery').select(['event_type', 'body']).execute()).map((row) => [
          row.event_type,
          JSON.parse(row.body).roles,
        ]),
      )
      .toEqual([['approval.unfillable', ['manager', 'supervisor']]]);
  });

  it('asks as soon as a second person holds either role', async () => {
    await signUpWithRole(`noapp-mgr-${engine}@example.com`, 'manager');
    const reader = await sendToChat('chat-noapp-two', 'refund $20 on A1002, it arrived broken');
    await reader.until('tool-approval-request');
    await reader.leave();
  });
});
