import { describe, expect, it } from 'vitest';
import { type GrantRequest, grantRefusalOf } from '@/lib/approvals/life-cycle/standing-grants';

const source = {
  approvalId: 'ap-1',
  chatId: 'chat-1',
  ownerId: 'user-1',
  toolName: 'issueRefund',
  requesterOnly: true,
};
const input = { orderId: 'A1002', amount: 30, reason: 'broken' };
const request: GrantRequest = { scope: 'me', ttlMs: 3_600_000, when: { amount: { lte: 30 } } };

describe('grantRefusalOf', () => {
  it('lets the requester narrow a grant that covers the call in front of them', () => {
    expect(grantRefusalOf(request, source, { deciderId: 'user-1', input })).toBeUndefined();
    expect(
      grantRefusalOf(
        { scope: 'chat', ttlMs: 60_000, when: { amount: { eq: 30 }, orderId: { eq: 'A1002' } } },
        source,
        { deciderId: 'user-1', input },
      ),
    ).toBeUndefined();
    // A tool without numbers needs no condition.
    expect(
      grantRefusalOf(
        { scope: 'chat', ttlMs: 60_000 },
        { ...source, toolName: 'createTicket' },
        {
          deciderId: 'user-1',
          input: { title: 'printer' },
        },
      ),
    ).toBeUndefined();
  });

  it('refuses a grant that leaves a number of the call unbounded or bounds it above the call', () => {
    const whens: GrantRequest['when'][] = [
      undefined,
      { orderId: { eq: 'A1002' } },
      { amount: { lte: 1_000_000 } },
      { amount: { gte: 1 } },
      { amount: { lt: 31 } },
      { amount: { in: [30, 500] } },
    ];
    for (const when of whens) {
      expect(
        grantRefusalOf({ scope: 'me', ttlMs: 60_000, ...(when && { when }) }, source, {
          deciderId: 'user-1',
          input,
        }),
      ).toContain('remember.when.amount');
    }
    // A number deeper than a field cannot be bounded: such a call takes no grant.
    expect(
      grantRefusalOf(
        { scope: 'me', ttlMs: 60_000 },
        { ...source, toolName: 'mail__send' },
        {
          deciderId: 'user-1',
          input: { to: 'a@example.com', items: [{ price: 5 }] },
        },
      ),
    ).toContain('cannot bound');
  });

  it('never makes a grant that stands in for a role step', () => {
    expect(
      grantRefusalOf(request, { ...source, requesterOnly: false }, { deciderId: 'user-1', input }),
    ).toContain('role step');
  });

  it('never makes a grant from a call an untrusted output supplied values to', () => {
    const provenance = {
      tainted: ['amount'],
      provenance: {
        amount: [{ source: 'tool' as const, tool: 'inbox__read', toolCallId: 'c1', trusted: false }],
      },
    };
    expect(grantRefusalOf(request, { ...source, provenance }, { deciderId: 'user-1', input })).toContain(
      'untrusted',
    );
  });

  it('refuses anyone but the requester, and a grant whose conditions the call does not meet', () => {
    expect(grantRefusalOf(request, source, { deciderId: 'user-2', input })).toContain('only the person');
    expect(
      grantRefusalOf(request, source, { deciderId: 'user-1', input: { ...input, amount: 40 } }),
    ).toContain('must cover the call');
    // A field the call lacks cannot be judged, so the grant would not cover it either.
    expect(
      grantRefusalOf({ ...request, when: { reason: { eq: 'broken' }, amount: { gt: 5, lte: 20 } } }, source, {
        deciderId: 'user-1',
        input: { orderId: 'A1002', amount: 20 },
      }),
    ).toContain('must cover the call');
  });
});
