import { beforeEach, describe, expect, it } from 'vitest';
import { GET as listDeliveries } from '@/app/api/admin/webhooks/route';
import { getDb } from '@/lib/db';
import { enqueueApprovalEvent } from '@/lib/webhooks';
import { getRequest } from '../support/chat-client';
import { configureServerOn, signInGuest, signUpUser } from '../support/server-env';
import { databaseEngines } from '../support/test-database';

const adminEmail = 'webhook-admin@example.com';

const event = (approvalId: string, type: 'approval.requested' | 'approval.settled') => ({
  type,
  approvalId,
  tool: 'issueRefund',
  summary: 'Refund 80.00 EUR on order A1002',
  roles: ['supervisor'],
  requester: { name: 'Grace' },
  expiresAt: Date.UTC(2030, 5, 1),
  ...(type === 'approval.settled' && { status: 'denied' }),
});

const list = (cookie: string | undefined, query = '') =>
  listDeliveries(getRequest(`/api/admin/webhooks${query}`, { cookie: cookie ?? '' }));

describe.each(databaseEngines)('GET /api/admin/webhooks on %s', (engine) => {
  let admin: string;

  beforeEach(async () => {
    await configureServerOn(engine, {
      AGENT_CONFIRM_TOOLS: '',
      TOOLGATE_ADMIN_EMAILS: adminEmail,
      // Nothing listens there and no delivery loop runs in this process: the rows stay pending.
      TOOLGATE_APPROVAL_WEBHOOK_URL: 'http://127.0.0.1:9/hooks/secret-token?key=also-secret',
      TOOLGATE_WEBHOOK_SECRET: 'admin-view-test-secret-0123456789',
    });
    admin = await signUpUser(adminEmail);
    const db = await getDb();
    await enqueueApprovalEvent(db, event('ap-first', 'approval.requested'), {
      now: () => Date.UTC(2030, 0, 1),
    });
    await enqueueApprovalEvent(db, event('ap-first', 'approval.settled'), {
      now: () => Date.UTC(2030, 0, 2),
    });
  }, 60_000);

  it('shows admins the deliveries newest first, with the event and the receiver’s origin only', async () => {
    const response = await list(admin);
    expect(response.status).toBe(200);
    const view = await response.json();
    expect(view.configured).toBe(true);
    expect(view.receiver).toBe('http://127.0.0.1:9');
    expect(JSON.stringify(view)).not.toContain('secret-token');
    expect(view.deliveries.map((delivery: { type: string }) => delivery.type)).toEqual([
      'approval.settled',
      'approval.requested',
    ]);
    expect(view.deliveries[0]).toMatchObject({
      approvalId: 'ap-first',
      status: 'pending',
      attempts: 0,
      lastStatus: null,
      lastError: null,
      nextAttemptAt: '2030-01-02T00:00:00.000Z',
      event: {
        type: 'approval.settled',
        status: 'denied',
        requester: { name: 'Grace' },
        url: 'http://localhost/approvals/ap-first',
      },
    });
    const pending = await (await list(admin, '?status=pending&limit=1')).json();
    expect(pending.deliveries).toHaveLength(1);
    const failed = await (await list(admin, '?status=failed')).json();
    expect(failed.deliveries).toEqual([]);
  });

  it('answers 404 to anyone but an admin, and 401 without a session', async () => {
    const user = await signUpUser('someone@example.com');
    for (const cookie of [user, await signInGuest()]) {
      const response = await list(cookie);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: expect.any(String) });
    }
    expect((await list(undefined)).status).toBe(401);
  });

  it('refuses a malformed filter with 400 { error }', async () => {
    for (const query of ['?status=lost', '?limit=0', '?limit=9999', '?limit=abc']) {
      const response = await list(admin, query);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: expect.any(String) });
    }
  });
});
