import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { getDb } from '@/lib/db';
import { getPolicy, policyInForce } from '@/lib/policy';
import { watchPolicyFile } from '@/lib/policy/policy-store';
import { stableStringify } from '../../packages/engine/src/shared/stable-stringify';
import { signUpWithRole, testPolicy, writePolicyFile } from '../support/approval-policy';
import { ChatStreamReader, jsonRequest, userMessage } from '../support/chat-client';
import { configureServerOn } from '../support/server-env';

const stricter = {
  ...testPolicy,
  rules: [
    { tool: 'createTicket', when: { title: { eq: 'small refund' } }, effect: 'deny' },
    ...testPolicy.rules,
  ],
};

describe('an edited policy file', () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  it('is picked up without a restart; a bad edit is logged and the last good version stays; approvals record their version', async () => {
    const path = writePolicyFile(testPolicy);
    await configureServerOn('sqlite', { TOOLGATE_POLICY: path, TOOLGATE_PARK_AFTER_MS: '50' });
    const initial = getPolicy();
    if (initial === undefined) throw new Error('no policy');
    stop = watchPolicyFile({ intervalMs: 50 });
    const first = policyInForce()?.version;
    // The version is the hex SHA-256 of the policy's canonical JSON (keys sorted).
    expect(first).toBe(createHash('sha256').update(stableStringify(initial)).digest('hex'));

    const requester = await signUpWithRole('reload-req@example.com');
    // A supervisor exists, or a call that asks for one is refused at once (no_approver).
    await signUpWithRole('reload-sup@example.com', 'supervisor');
    const ask = async (chatId: string) => {
      const response = await chat(
        jsonRequest(
          '/api/chat',
          { id: chatId, message: userMessage('create a ticket: small refund') },
          { cookie: requester.cookie },
        ),
      );
      return new ChatStreamReader(response);
    };
    const { approvalId } = (await (await ask('chat-before')).until('tool-approval-request')) as {
      approvalId: string;
    };
    await expect
      .poll(
        async () =>
          (
            await (
              await getDb()
            )
              .selectFrom('approvals')
              .select('policy_version')
              .where('id', '=', approvalId)
              .executeTakeFirst()
          )?.policy_version,
      )
      .toBe(first);

    // A stricter edit: the next call of that kind is refused without a card.
    writeFileSync(path, JSON.stringify(stricter));
    await expect.poll(() => policyInForce()?.version, { timeout: 10_000 }).not.toBe(first);
    expect(getPolicy()?.rules[0]).toMatchObject({ effect: 'deny' });
    const refused = await (await ask('chat-after')).rest();
    expect(JSON.stringify(refused)).not.toContain('tool-approval-request');

    // A bad edit is logged, and the last good version stays in force.
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const good = policyInForce()?.version;
    writeFileSync(path, JSON.stringify({ rules: [{ tool: 'createTicket', approvers: [] }] }));
    await expect
      .poll(() => errors.mock.calls.map((call) => String(call[0])).join('\n'), { timeout: 10_000 })
      .toContain('rules[0].approvers: approvers is empty');
    // An edit is checked against the tools as at start-up: a field the tool does not take is refused too.
    writeFileSync(
      path,
      JSON.stringify({ rules: [{ tool: 'createTicket', when: { titel: { eq: 'x' } }, effect: 'deny' }] }),
    );
    await expect
      .poll(() => errors.mock.calls.map((call) => String(call[0])).join('\n'), { timeout: 10_000 })
      .toContain('rules[0].when.titel: createTicket has no input field "titel"');
    errors.mockRestore();
    expect(policyInForce()?.version).toBe(good);
    expect(getPolicy()?.rules[0]).toMatchObject({ effect: 'deny' });
  });
});
