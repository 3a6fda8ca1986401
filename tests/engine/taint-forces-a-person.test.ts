import {
  type ApprovalRequestEvent,
  type ApprovalShellOptions,
  createMemoryApprovalRegistry,
  wrapToolsWithApproval,
} from '@toolgate/engine';
import { tool } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type PolicyNames, parsePolicy } from '../../packages/engine/src/policy/policy-file';
import { verdictOf } from '../../packages/engine/src/policy/policy-verdict';
import type { CallProvenance } from '../../packages/engine/src/provenance';
import { call } from '../support/call-tool';

const taintedRefund: CallProvenance = {
  tainted: ['amount'],
  provenance: {
    amount: [{ source: 'tool', tool: 'inbox__read_inbox', toolCallId: 'read-1', trusted: false }],
  },
  context: [{ tool: 'inbox__read_inbox', toolCallId: 'read-1' }],
};
const clean: CallProvenance = { tainted: [], provenance: { amount: [{ source: 'user' }] } };

/** A refund tool nobody is asked about, traced by a check that answers `traced`. */
function setUp(traced: CallProvenance, options: Partial<ApprovalShellOptions> = {}) {
  const registry = createMemoryApprovalRegistry();
  const events: ApprovalRequestEvent[] = [];
  const issueRefund = vi.fn(async ({ amount }: { amount: number }) => ({ refundId: 'RF-1', amount }));
  const assessed: string[] = [];
  const wrapped = wrapToolsWithApproval(
    {
      issueRefund: tool({
        description: 'Refund.',
        inputSchema: z.object({ amount: z.number() }),
        execute: issueRefund,
      }),
    },
    [],
    {
      registry,
      sessionId: 'chat-1',
      emit: (event) => {
        events.push(event);
        queueMicrotask(() => registry.resolve(event.approvalId, 'chat-1', false));
      },
      timeoutMs: 60_000,
      provenance: {
        tools: ['issueRefund'],
        assess: () => traced,
        onAssessed: (toolCallId) => assessed.push(toolCallId),
      },
      ...options,
    },
  );
  return { wrapped, events, issueRefund, assessed };
}

describe('wrapToolsWithApproval with a provenance check', () => {
  it('runs an untainted write that no setting asks about, without a card', async () => {
    const { wrapped, events, issueRefund, assessed } = setUp(clean);
    await expect(call(wrapped.issueRefund, { amount: 5 }, 'c1')).resolves.toEqual({
      refundId: 'RF-1',
      amount: 5,
    });
    expect(events).toEqual([]);
    expect(issueRefund).toHaveBeenCalledOnce();
    expect(assessed).toEqual(['c1']);
  });

  it('shows a tainted write to its requester even though no setting asks, with its provenance', async () => {
    const { wrapped, events, issueRefund } = setUp(taintedRefund);
    await expect(call(wrapped.issueRefund, { amount: 480 }, 'c1')).resolves.toMatchObject({
      denied: true,
      reason: 'denied',
    });
    expect(issueRefund).not.toHaveBeenCalled();
    expect(events).toHaveLength(1);
  });

  it('ignores "allow for this chat" for a tainted write', async () => {
    const { wrapped, events, issueRefund } = setUp(taintedRefund, { approvedByRule: () => true });
    await call(wrapped.issueRefund, { amount: 480 }, 'c1');
    expect(events).toHaveLength(1);
    expect(issueRefund).not.toHaveBeenCalled();
  });

  it('adds a requester step to a policy that asks only a role, and tells the policy the call is tainted', async () => {
    const registry = createMemoryApprovalRegistry();
    const confirm = vi.spyOn(registry, 'confirm').mockResolvedValue({ approved: false, reason: 'denied' });
    const askFor = vi.fn(() => ({
      kind: 'confirm' as const,
      steps: [{ kind: 'role' as const, role: 'supervisor' }],
      rule: 'rules[0]',
    }));
    const { wrapped } = setUp(taintedRefund, { registry, askFor });
    await call(wrapped.issueRefund, { amount: 480 }, 'c1');
    expect(askFor).toHaveBeenCalledWith('issueRefund', { amount: 480 }, { tainted: true });
    expect(confirm.mock.calls[0]?.[0]).toMatchObject({
      steps: [{ kind: 'requester' }, { kind: 'role', role: 'supervisor' }],
      provenance: taintedRefund,
    });
  });
});

describe('verdictOf with "$tainted"', () => {
  const names: PolicyNames = {
    isKnownTool: (name) => name === 'issueRefund',
    fieldsOf: () => ['orderId', 'amount', 'reason'],
    knownToolNames: ['issueRefund'],
  };
  const parsed = parsePolicy(
    {
      roles: { supervisor: ['sup@example.com'] },
      rules: [
        { tool: 'issueRefund', when: { $tainted: true, amount: { gt: 100 } }, effect: 'deny' },
        { tool: 'issueRefund', when: { $tainted: true }, approvers: [{ role: 'supervisor' }] },
        { tool: 'issueRefund', approvers: ['requester'] },
      ],
    },
    names,
  );
  if (!('policy' in parsed)) throw new Error(parsed.problems.join('\n'));
  const refund = { orderId: 'A1001', amount: 480, reason: 'x' };

  it('matches a rule with "$tainted": true only for a tainted call', () => {
    expect(verdictOf(parsed.policy, 'issueRefund', refund, { tainted: true })).toMatchObject({
      kind: 'deny',
      label: 'rules[0]: issueRefund amount > 100 and $tainted = true',
    });
    expect(
      verdictOf(parsed.policy, 'issueRefund', { ...refund, amount: 50 }, { tainted: true }),
    ).toMatchObject({
      kind: 'approve',
      steps: [{ kind: 'role', role: 'supervisor' }],
    });
    expect(verdictOf(parsed.policy, 'issueRefund', refund, { tainted: false })).toMatchObject({
      kind: 'approve',
      steps: [{ kind: 'requester' }],
    });
  });

  it('refuses a "$tainted" that is not true or false, naming it', () => {
    const result = parsePolicy(
      { rules: [{ tool: 'issueRefund', when: { $tainted: 'yes' }, effect: 'deny' }] },
      names,
    );
    expect(result).toEqual({ problems: [expect.stringContaining('when.$tainted is true or false')] });
  });
});
