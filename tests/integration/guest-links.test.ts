import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GET as activity } from '@/app/api/activity/route';
import { GET as exportAudit } from '@/app/api/audit/export/route';
import { POST as complete } from '@/app/api/chat/complete/route';
import { POST as undo } from '@/app/api/chat/undo/route';
import { GET as tickets } from '@/app/api/tickets/route';
import { getSessionUser } from '@/lib/auth/session-user';
import { createChainVerifier, getDb } from '@/lib/db';
import { callAuth, signIn, signUp } from '../support/auth-client';
import { defaultTestCookie, getRequest, jsonRequest, userMessage } from '../support/chat-client';
import { listAccountEvents } from '../support/database-reads';
import { configureServerOn, cookieHeaderOf, signInGuest, signUpUser } from '../support/server-env';
import { type SmtpCapture, startSmtpCapture, verificationLinkOf } from '../support/smtp-capture';
import { databaseEngines } from '../support/test-database';

const adminEmail = 'auditor@example.com';
let smtp: SmtpCapture | undefined;

afterEach(async () => {
  await smtp?.stop();
  smtp = undefined;
});

/** One turn of `cookie`'s, answered whole: the offline model makes the call the text asks for. */
async function completeTurn(chatId: string, text: string, cookie: string): Promise<void> {
  const response = await complete(
    jsonRequest('/api/chat/complete', { id: chatId, messages: [userMessage(text)] }, { cookie }),
  );
  expect(response.status).toBe(200);
  await response.json();
}

/** The admin's export checked as `npm run audit:verify` checks it. */
async function verifiedExport(admin: string) {
  const text = await (await exportAudit(getRequest('/api/audit/export', { cookie: admin }))).text();
  const verifier = createChainVerifier();
  const lines = text.split('\n').filter((line) => line !== '');
  for (const line of lines) {
    const failed = verifier.push(JSON.parse(line));
    if (failed !== undefined) return failed;
  }
  return verifier.end();
}

type ActivityRow = { chatId: string; toolName: string; toolCallId: string; outcome: string };

async function activityOf(cookie: string): Promise<ActivityRow[]> {
  return (await (await activity(getRequest('/api/activity', { cookie }))).json()) as ActivityRow[];
}

async function ticketTitles(cookie: string): Promise<string[]> {
  const rows = (await (await tickets(getRequest('/api/tickets', { cookie }))).json()) as { title: string }[];
  return rows.map((row) => row.title);
}

describe.each(databaseEngines)('a guest who becomes an account on %s', (engine) => {
  let admin: string;

  beforeEach(async () => {
    smtp = await startSmtpCapture();
    await configureServerOn(engine, {
      AGENT_CONFIRM_TOOLS: '',
      TOOLGATE_ADMIN_EMAILS: adminEmail,
      SMTP_URL: smtp.url,
    });
    admin = await signUpUser(adminEmail);
  }, 60_000);

  /** What every way in must leave: a chain that verifies, and the guest's calls still the user's. */
  async function expectGuestHistoryKept(cookie: string, guestId: string) {
    const user = await getSessionUser(new Headers({ cookie }));
    expect(user?.isAnonymous).toBe(false);
    expect(user?.id).not.toBe(guestId);

    expect(await verifiedExport(admin)).toMatchObject({ ok: true, rows: 1 });
    const rows = await activityOf(cookie);
    expect(rows.map((row) => [row.chatId, row.toolName, row.outcome])).toEqual([
      ['guest-chat', 'createTicket', 'executed'],
    ]);
    expect(await ticketTitles(cookie)).toEqual(['printer broken']);
    expect(
      (await listAccountEvents(await getDb())).filter((event) => event.action === 'guest-linked'),
    ).toEqual([expect.objectContaining({ actorId: guestId, targetUserId: user?.id })]);

    // The write made as a guest is the account's to take back; the undo row is appended.
    const response = await undo(
      jsonRequest('/api/chat/undo', { chatId: 'guest-chat', toolCallId: rows[0].toolCallId }, { cookie }),
    );
    expect({ status: response.status, body: await response.json() }).toEqual({
      status: 200,
      body: { undone: true },
    });
    await expect
      .poll(async () => (await activityOf(cookie)).map((row) => row.outcome))
      .toEqual(['undone', 'executed']);
    expect(await verifiedExport(admin)).toMatchObject({ ok: true, rows: 2 });
  }

  it('signs up and follows the link: the audit export still verifies and the guest’s calls stay theirs', async () => {
    const guest = defaultTestCookie() as string;
    const guestId = (await getSessionUser(new Headers({ cookie: guest })))?.id as string;
    await completeTurn('guest-chat', 'create a ticket: printer broken', guest);

    const { response, cookie: signUpCookie } = await signUp('new@example.com', undefined, { cookie: guest });
    expect(response.status).toBe(200);
    const link = verificationLinkOf(await (smtp as SmtpCapture).mailTo('new@example.com'));
    const followed = await callAuth(link, undefined, { cookie: `${guest}; ${signUpCookie}` });
    expect([200, 302]).toContain(followed.status);

    await expectGuestHistoryKept(cookieHeaderOf(followed), guestId);
  }, 60_000);

  it('signs in to an existing account: the audit export still verifies and the guest’s calls stay theirs', async () => {
    await signUpUser('old@example.com');
    const guest = await signInGuest();
    const guestId = (await getSessionUser(new Headers({ cookie: guest })))?.id as string;
    await completeTurn('guest-chat', 'create a ticket: printer broken', guest);

    const { response, cookie } = await signIn('old@example.com', 'a long unusual passphrase for tests', {
      cookie: guest,
    });
    expect(response.status).toBe(200);

    await expectGuestHistoryKept(cookie, guestId);
  }, 60_000);
});
