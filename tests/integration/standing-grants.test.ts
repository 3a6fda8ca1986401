import { beforeEach, describe, expect, it } from 'vitest';
import { GET as activity } from '@/app/api/activity/route';
import { DELETE as revokeGrant } from '@/app/api/grants/[grantId]/route';
import { GET as listGrants } from '@/app/api/grants/route';
import { createChainVerifier, getDb, listAuditExportRows } from '@/lib/db';
import { signUpWithRole, writePolicyFile } from '../support/approval-policy';
import { decideAs, sendToChat } from '../support/approval-requests';
import { defaultTestCookie, getRequest, setDefaultTestCookie } from '../support/chat-client';
import { configureServerOn } from '../support/server-env';
import { databaseEngines } from '../support/test-database';

const hour = 3_600_000;
const params = <T extends Record<string, string>>(value: T) => ({ params: Promise.resolve(value) });

type GrantView = { id: string; toolName: string; scope: string; when?: unknown; expiresAt: number };

async function grants(cookie = defaultTestCookie()): Promise<GrantView[]> {
  const response = await listGrants(getRequest('/api/grants', { cookie }));
  return ((await response.json()) as { grants: GrantView[] }).grants;
}

type ActivityRow = { outcome: string; toolName: string; detail: Record<string, unknown> | null };

async function auditRows(cookie = defaultTestCookie()) {
  const response = await activity(getRequest('/api/activity', { cookie }));
  return (await response.json()) as ActivityRow[];
}

/** Whether the whole audit log still chains, as `npm run audit:verify` checks an export. */
async function auditChainVerifies(): Promise<boolean> {
  const verifier = createChainVerifier();
  for (const row of await listAuditExportRows(await getDb(), { limit: 10_000 })) {
    const verdict = verifier.push(row);
    if (verdict !== undefined && !verdict.ok) return false;
  }
  return verifier.end().ok;
}

function revokeAs(id: string, cookie: string) {
  return revokeGrant(
    new Request(`http://localhost/api/grants/${id}`, { method: 'DELETE', headers: { cookie } }) as never,
    params({ grantId: id }),
  );
}

/** Sends a refund request and says whether it ran without a card; a card is declined. */
async function runsWithoutCard(chatId: string, text: string): Promise<boolean> {
  const reader = await sendToChat(chatId, text);
  const chunks: { type: string; approvalId?: string }[] = [];
  for (let chunk = await reader.next(); chunk !== undefined; chunk = await reader.next()) {
    chunks.push(chunk);
    if (chunk.type === 'tool-approval-request') {
      expect((await decideAs(chunk.approvalId as string, defaultTestCookie(), false)).status).toBe(200);
    }
  }
  return !chunks.some((chunk) => chunk.type === 'tool-approval-request');
}

describe.each(databaseEngines)('standing grants on %s', (engine) => {
  beforeEach(async () => {
    const policy = writePolicyFile({ rules: [{ tool: 'issueRefund', approvers: ['requester'] }] });
    await configureServerOn(engine, { TOOLGATE_POLICY: policy, TOOLGATE_PARK_AFTER_MS: '60000' });
    setDefaultTestCookie((await signUpWithRole(`grants-${engine}@example.com`)).cookie);
  });

  it('runs later matching calls in any chat without a card, audited with the grant; others ask', async () => {
    const reader = await sendToChat('grant-first', 'refund 30 on A1002, it arrived broken');
    const request = await reader.until('tool-approval-request');
    const remember = { scope: 'me', ttlMs: hour, when: { amount: { lte: 30 } } };
    expect(await decideAs(request.approvalId, defaultTestCookie(), true, { remember })).toMatchObject({
      status: 200,
      body: { status: 'approved' },
    });
    await reader.rest();
    const [grant] = await grants();
    expect(grant).toMatchObject({ toolName: 'issueRefund', scope: 'me', when: { amount: { lte: 30 } } });
    expect(grant?.expiresAt).toBeGreaterThan(Date.now() + hour - 60_000);

    expect(await runsWithoutCard('grant-second', 'refund 25 on A1003, it arrived broken')).toBe(true);
    await expect.poll(async () => (await auditRows())[0]?.outcome).toBe('approved_by_rule');
    expect((await auditRows())[0]?.detail).toMatchObject({ grant: grant?.id });
    // Outside the grant: a larger amount asks.
    expect(await runsWithoutCard('grant-second', 'refund 40 on A1003, it arrived broken')).toBe(false);
  });

  it('ends on its own when its time is up: the same call asks again', async () => {
    const reader = await sendToChat('grant-expiry', 'refund 20 on A1002, it arrived broken');
    const request = await reader.until('tool-approval-request');
    await decideAs(request.approvalId, defaultTestCookie(), true, {
      remember: { scope: 'chat', ttlMs: 1500, when: { amount: { lte: 20 } } },
    });
    await reader.rest();
    expect(await grants()).toHaveLength(1);
    await expect.poll(() => grants(), { timeout: 10_000, interval: 250 }).toEqual([]);
    expect(await runsWithoutCard('grant-expiry', 'refund 20 on A1002, it arrived broken')).toBe(false);
  });

  it('refuses a grant wider than the call, on an unknown field or for too long; nothing is decided', async () => {
    const reader = await sendToChat('grant-wide', 'refund 20 on A1002, it arrived broken');
    const request = await reader.until('tool-approval-request');
    const wider = await decideAs(request.approvalId, defaultTestCookie(), true, {
      remember: { scope: 'chat', ttlMs: hour, when: { amount: { lte: 10 } } },
    });
    expect(wider).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('must cover the call') },
    });
    const unknownField = await decideAs(request.approvalId, defaultTestCookie(), true, {
      remember: { scope: 'chat', ttlMs: hour, when: { total: { lte: 30 } } },
    });
    expect(unknownField).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('no input field') },
    });
    const tooLong = await decideAs(request.approvalId, defaultTestCookie(), true, {
      remember: { scope: 'chat', ttlMs: 30 * 24 * hour },
    });
    expect(tooLong).toMatchObject({ status: 400, body: { error: expect.stringContaining('ttlMs') } });
    expect(await grants()).toEqual([]);
    // Still pending: a plain allow goes through.
    expect((await decideAs(request.approvalId, defaultTestCookie(), true)).body).toMatchObject({
      status: 'approved',
    });
    await reader.rest();
  });

  it('refuses a grant that leaves a number of the call unbounded or bounds it above the call; nothing is decided', async () => {
    const reader = await sendToChat('grant-bounds', 'refund 30 on A1002, it arrived broken');
    const request = await reader.until('tool-approval-request');
    const refused = async (when?: Record<string, unknown>) =>
      decideAs(request.approvalId, defaultTestCookie(), true, {
        remember: { scope: 'me', ttlMs: hour, ...(when !== undefined && { when }) },
      });
    for (const when of [
      undefined,
      { orderId: { eq: 'A1002' } },
      { amount: { lte: 1_000_000 } },
      { amount: { gte: 1 } },
      { amount: { lt: 31 } },
      { amount: { in: [30, 500] } },
    ]) {
      expect(await refused(when)).toMatchObject({
        status: 400,
        body: { error: expect.stringContaining('remember.when.amount') },
      });
    }
    expect(await grants()).toEqual([]);
    // At most the call's own amount: accepted, and the call runs.
    expect(await refused({ amount: { lte: 30 } })).toMatchObject({
      status: 200,
      body: { status: 'approved' },
    });
    await reader.rest();
    expect(await grants()).toEqual([expect.objectContaining({ when: { amount: { lte: 30 } } })]);
  });

  it('audits making and revoking a grant: two rows its owner sees, no input values, the chain verifies', async () => {
    const reader = await sendToChat('grant-audit', 'refund 20 on A1002, it arrived broken');
    const request = await reader.until('tool-approval-request');
    const remember = { scope: 'chat', ttlMs: hour, when: { amount: { lte: 20 } } };
    expect((await decideAs(request.approvalId, defaultTestCookie(), true, { remember })).status).toBe(200);
    await reader.rest();
    const [grant] = await grants();
    const id = grant?.id ?? '';
    const other = (await signUpWithRole(`grants-auditor-${engine}@example.com`)).cookie;
    expect((await revokeAs(id, other)).status).toBe(404);
    expect(await (await revokeAs(id, defaultTestCookie() ?? '')).json()).toEqual({ revoked: true });
    // Revoked already: nothing more to audit.
    expect((await revokeAs(id, defaultTestCookie() ?? '')).status).toBe(404);

    const rows = (await auditRows()).filter((row) => row.outcome.startsWith('grant_'));
    const covers = { scope: 'chat', ttlMs: hour, when: ['amount'] };
    expect(rows).toEqual([
      expect.objectContaining({
        outcome: 'grant_revoked',
        toolName: 'issueRefund',
        detail: { grant: id, standingGrant: covers },
      }),
      expect.objectContaining({
        outcome: 'grant_created',
        toolName: 'issueRefund',
        detail: { grant: id, standingGrant: covers },
      }),
    ]);
    expect(JSON.stringify(rows.map((row) => row.detail))).not.toContain('lte');
    expect((await auditRows(other)).filter((row) => row.outcome.startsWith('grant_'))).toEqual([]);
    expect(await auditChainVerifies()).toBe(true);
  });

  it('lists a grant to its owner only and revokes it: the next call asks again', async () => {
    const reader = await sendToChat('grant-revoke', 'refund 22 on A1002, it arrived broken');
    const request = await reader.until('tool-approval-request');
    await decideAs(request.approvalId, defaultTestCookie(), true, {
      remember: { scope: 'chat', ttlMs: hour, when: { amount: { lte: 22 } } },
    });
    await reader.rest();
    const [grant] = await grants();
    expect(grant).toMatchObject({ scope: 'chat' });
    const other = (await signUpWithRole(`grants-other-${engine}@example.com`)).cookie;
    expect(await grants(other)).toEqual([]);
    const id = grant?.id ?? '';
    const theirs = await revokeGrant(
      new Request(`http://localhost/api/grants/${id}`, {
        method: 'DELETE',
        headers: { cookie: other },
      }) as never,
      params({ grantId: id }),
    );
    expect(theirs.status).toBe(404);
    expect(await runsWithoutCard('grant-revoke', 'refund 21 on A1002, it arrived broken')).toBe(true);
    const mine = await revokeGrant(
      new Request(`http://localhost/api/grants/${id}`, {
        method: 'DELETE',
        headers: { cookie: defaultTestCookie() ?? '' },
      }) as never,
      params({ grantId: id }),
    );
    expect(await mine.json()).toEqual({ revoked: true });
    expect(await grants()).toEqual([]);
    expect(await runsWithoutCard('grant-revoke', 'refund 20 on A1002, it arrived broken')).toBe(false);
  });
});
