import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findAccountByEmail, markEmailVerified } from '@/lib/db';
import { openDatabase } from '@/lib/db/open-database';
import { enqueueApprovalEvent, listWebhookDeliveries, signWebhookBody } from '@/lib/webhooks';
import { guestCookie } from '../support/http-chat';
import { freePort, startNextServer, testAuthSecret, testDistDir } from '../support/next-server';
import { cookieHeaderOf } from '../support/server-env';
import { WebhookReceiver } from '../support/webhook-receiver';

const secret = 'server-webhook-test-secret-0123456789';

describe('the approval webhook in a running server', () => {
  const receiver = new WebhookReceiver(() => 200);
  afterAll(() => receiver.stop());

  it('refuses to start with a webhook URL but no secret', async () => {
    const child = spawn(
      'node_modules/.bin/next',
      ['start', '-p', String(await freePort()), '-H', '127.0.0.1'],
      {
        env: {
          ...process.env,
          NEXT_DIST_DIR: testDistDir,
          NODE_ENV: 'production',
          BETTER_AUTH_SECRET: testAuthSecret,
          TOOLGATE_APPROVAL_WEBHOOK_URL: 'https://hooks.example.com/toolgate',
          TOOLGATE_WEBHOOK_SECRET: '',
        },
      },
    );
    let output = '';
    for (const stream of [child.stdout, child.stderr]) stream.on('data', (data) => (output += data));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearTimeout(timer);
    expect(code).toBe(1);
    expect(output).toContain('TOOLGATE_APPROVAL_WEBHOOK_URL needs TOOLGATE_WEBHOOK_SECRET');
  }, 60_000);

  it('sends from its start-up hook the events queued in its database, by this or another instance', async () => {
    await receiver.start();
    const databasePath = join(mkdtempSync(join(tmpdir(), 'toolgate-webhook-server-')), 'toolgate.db');
    // Queued before the server runs, as by an instance that went away.
    const db = await openDatabase({ path: databasePath });
    await enqueueApprovalEvent(
      db,
      {
        type: 'approval.requested',
        approvalId: 'ap-server',
        tool: 'issueRefund',
        summary: 'Refund 700.00 EUR on order A1003',
        roles: ['supervisor'],
        requester: { name: 'Lin' },
        expiresAt: Date.now() + 3_600_000,
      },
      { enabled: true, baseUrl: 'https://chat.example.com' },
    );
    const server = await startNextServer({
      DATABASE_PATH: databasePath,
      TOOLGATE_ADMIN_EMAILS: 'webhook-page-admin@example.com',
      TOOLGATE_ALLOW_UNVERIFIED_SIGNUP: '1',
      AI_MODEL: 'offline',
      TOOLGATE_APPROVAL_WEBHOOK_URL: receiver.url,
      TOOLGATE_WEBHOOK_SECRET: secret,
    });
    try {
      await expect.poll(() => receiver.received.length, { timeout: 30_000, interval: 100 }).toBe(1);
      const [webhook] = receiver.received;
      expect(webhook.headers['x-toolgate-signature']).toBe(signWebhookBody(secret, webhook.body));
      expect(JSON.parse(webhook.body)).toMatchObject({
        approvalId: 'ap-server',
        url: 'https://chat.example.com/approvals/ap-server',
      });
      await expect
        .poll(async () => (await listWebhookDeliveries(db))[0]?.status, { timeout: 30_000, interval: 100 })
        .toBe('delivered');

      // The admins' page lists it; anyone else finds no page there.
      const guest = await guestCookie(server.url);
      expect((await fetch(`${server.url}/admin/webhooks`, { headers: { cookie: guest } })).status).toBe(404);
      const email = 'webhook-page-admin@example.com';
      const password = 'a long unusual passphrase for tests';
      const authPost = (path: string, body: unknown) =>
        fetch(`${server.url}/api/auth${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: server.url },
          body: JSON.stringify(body),
        });
      expect((await authPost('/sign-up/email', { email, password, name: 'Admin' })).status).toBe(200);
      const account = await findAccountByEmail(db, email);
      await markEmailVerified(db, account?.id as string);
      const signedIn = await authPost('/sign-in/email', { email, password });
      expect(signedIn.status).toBe(200);
      const page = await fetch(`${server.url}/admin/webhooks`, {
        headers: { cookie: cookieHeaderOf(signedIn) },
      });
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('Approval webhook deliveries');
      expect(html).toContain('ap-server');
    } finally {
      await server.stop();
      await db.destroy();
    }
  }, 120_000);
});
