import { describe, expect, it } from 'vitest';
import type { ApprovalView } from '@/components/api-types';
import { filterInbox, noFilters } from '@/components/inbox-filters';
import { inboxTextOf, whyItLeft } from '@/components/inbox-text';

function viewOf(overrides: Partial<ApprovalView>): ApprovalView {
  return {
    approvalId: 'a1',
    chatId: 'c1',
    tool: 'issueRefund',
    input: { orderId: 'A1002', amount: 80, reason: 'broken' },
    inputDigest: 'd',
    status: 'pending',
    requester: { name: 'Ann' },
    steps: [{ kind: 'role', role: 'supervisor' }],
    tainted: [],
    provenance: {},
    expiresAt: Date.now() + 60_000,
    remainingMs: 60_000,
    viewer: { canAllow: false, canDeny: false, isRequester: false },
    ...overrides,
  };
}

const roleName = (role: string) => (role === 'manager' ? '经理' : role);

describe('what an approver reads about an item that left the inbox', () => {
  const zh = inboxTextOf('zh');
  it.each([
    [
      { status: 'executed', outcome: { status: 'executed', result: { refundId: 'RF-000003' } } },
      '已执行：RF-000003',
    ],
    [
      { status: 'denied', reason: 'policy_changed', outcome: { status: 'denied' } },
      '现行审批规则拒绝了这次调用：什么都没有执行',
    ],
    [{ status: 'expired', reason: 'timeout', outcome: { status: 'expired' } }, '已过期：无人及时审批'],
    [{ status: 'denied', reason: 'withdrawn', outcome: { status: 'withdrawn' } }, '请求人已撤回'],
    [
      {
        status: 'denied',
        reason: 'denied',
        outcome: { status: 'denied' },
        steps: [{ kind: 'role', role: 'supervisor', decision: 'deny', decidedBy: { name: '王主管' } }],
      },
      '已被王主管拒绝',
    ],
    [
      {
        steps: [
          { kind: 'role', role: 'supervisor', decision: 'allow', decidedBy: { name: '我' } },
          { kind: 'role', role: 'supervisor' },
        ],
      },
      '你的决定已记录：等待另一位审批人',
    ],
    [{ steps: [{ kind: 'role', role: 'manager', escalatedTo: 'manager' }] }, '已升级给经理：不再需要你审批'],
  ] as [Partial<ApprovalView>, string][])('%o reads %s', (overrides, text) => {
    expect(whyItLeft(viewOf(overrides), zh, roleName).text).toBe(text);
  });

  it.each([
    [{ decided: 'deny' }, { status: 'denied', reason: 'denied', outcome: { status: 'denied' } }, '你已拒绝'],
    [
      { decided: 'allow' },
      { status: 'executed', outcome: { status: 'executed', result: { refundId: 'RF-000003' } } },
      '你已允许 · 已执行：RF-000003',
    ],
    [
      { decided: 'edit' },
      { status: 'executed', outcome: { status: 'executed', result: { refundId: 'RF-000003' } } },
      '你修改后允许 · 已执行：RF-000003',
    ],
    [{ decided: 'allow' }, { status: 'failed', outcome: { status: 'failed' } }, '你已允许 · 执行失败'],
    [{ decided: 'allow' }, { status: 'executing' }, '你已允许 · 执行中…'],
  ] as [Partial<ApprovalView['viewer']>, Partial<ApprovalView>, string][])(
    'speaks of the reader’s own decision (%o) as theirs: %o reads %s',
    (viewer, overrides, text) => {
      const steps = [
        {
          kind: 'role',
          role: 'supervisor',
          decision: viewer.decided === 'deny' ? 'deny' : 'allow',
          decidedBy: { name: '王主管' },
        },
      ] as ApprovalView['steps'];
      const view = viewOf({
        steps,
        ...overrides,
        viewer: { canAllow: false, canDeny: false, isRequester: false, ...viewer },
      });
      expect(whyItLeft(view, zh, roleName).text).toBe(text);
    },
  );

  it('says "you denied it" in English, and only "nothing ran" where the reader’s own “no” is shown beside it', () => {
    const view = viewOf({
      status: 'denied',
      reason: 'denied',
      outcome: { status: 'denied' },
      steps: [{ kind: 'role', role: 'supervisor', decision: 'deny', decidedBy: { name: 'Wang' } }],
      viewer: { canAllow: false, canDeny: false, isRequester: false, decided: 'deny' },
    });
    expect(whyItLeft(view, inboxTextOf('en'), roleName).text).toBe('You denied it');
    expect(whyItLeft(view, zh, roleName, { decisionShown: true }).text).toBe('什么都没有执行');
    // Another supervisor reading the same call still reads who denied it.
    const other = { ...view, viewer: { canAllow: false, canDeny: false, isRequester: false } };
    expect(whyItLeft(other, inboxTextOf('en'), roleName).text).toBe('Denied by Wang');
  });

  it('says an item it may no longer see is no longer theirs, without guessing more', () => {
    expect(whyItLeft(undefined, inboxTextOf('en'), roleName).text).toBe(
      'No longer yours to decide: escalated to another role, or your role changed',
    );
  });
});

describe('the inbox filters', () => {
  const now = Date.parse('2026-12-02T12:00:00Z');
  const items = [
    viewOf({ approvalId: 'small', input: { amount: 20 }, askedAt: '2026-12-02T11:59:00Z' }),
    viewOf({ approvalId: 'large', input: { amount: 600 }, askedAt: '2026-12-02T10:00:00Z' }),
    viewOf({
      approvalId: 'ticket',
      tool: 'createTicket',
      input: { title: 'x' },
      steps: [{ kind: 'role', role: 'manager' }],
      askedAt: '2026-12-01T10:00:00Z',
    }),
  ];
  const ids = (filters: Partial<typeof noFilters>) =>
    filterInbox(items, { ...noFilters, ...filters }, now).map((item) => item.approvalId);

  it('narrow by tool, role, amount range and how long an item waits; empty filters narrow nothing', () => {
    expect(ids({})).toEqual(['small', 'large', 'ticket']);
    expect(ids({ tool: 'issueRefund' })).toEqual(['small', 'large']);
    expect(ids({ role: 'manager' })).toEqual(['ticket']);
    expect(ids({ minAmount: '100' })).toEqual(['large']);
    expect(ids({ maxAmount: '100' })).toEqual(['small']);
    expect(ids({ olderThanMs: 3_600_000 })).toEqual(['large', 'ticket']);
  });
});
