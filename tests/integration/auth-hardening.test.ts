import { afterEach, describe, expect, it, vi } from 'vitest';
import { GET as auditLog } from '@/app/api/audit/route';
import { GET as guest } from '@/app/api/auth/guest/route';
import { POST as chat } from '@/app/api/chat/route';
import { GET as listChats } from '@/app/api/chats/route';
import { getSessionUser } from '@/lib/auth/session-user';
import { findAccountByEmail, getDb, markEmailVerified } from '@/lib/db';
import { authRequest, callAuth, signIn, signUp } from '../support/auth-client';
import {
  ChatStreamReader,
  defaultTestCookie,
  getRequest,
  jsonRequest,
  userMessage,
} from '../support/chat-client';
import { listAccountEvents } from '../support/database-reads';
import { configureServer, cookieHeaderOf } from '../support/server-env';
import { type SmtpCapture, startSmtpCapture, verificationLinkOf } from '../support/smtp-capture';

const password = 'a long unusual passphrase';
const originalNodeEnv = process.env.NODE_ENV;
let smtp: SmtpCapture | undefined;

afterEach(async () => {
  (process.env as Record<string, string | undefined>).NODE_ENV = originalNodeEnv;
  await smtp?.stop();
  smtp = undefined;
});

/** Runs the server code as `next start` does (NODE_ENV=production). */
function asProduction() {
  (process.env as Record<string, string | undefined>).NODE_ENV = 'production';
}

async function auditStatus(cookie: string): Promise<number> {
  return (await auditLog(getRequest('/api/audit', { cookie }))).status;
}

/** A signed-in user whose email is verified (as the CLI's `verify` leaves it). */
async function verifiedUser(email: string): Promise<{ id: string; cookie: string }> {
  expect((await signUp(email)).response.status).toBe(200);
  const db = await getDb();
  const account = await findAccountByEmail(db, email.toLowerCase());
  if (account === undefined) throw new Error(`no account for ${email}`);
  await markEmailVerified(db, account.id);
  const { response, cookie } = await signIn(email);
  expect(response.status).toBe(200);
  return { id: account.id, cookie };
}

describe('privilege from a verified email', () => {
  it('gives an unverified sign-up with an admin’s email, in any case, no admin power until it is verified', async () => {
    asProduction();
    await configureServer({
      TOOLGATE_ADMIN_EMAILS: 'admin@example.com',
      TOOLGATE_ALLOW_UNVERIFIED_SIGNUP: '1',
    });
    const { response, cookie } = await signUp('Admin@Example.com');
    expect(response.status).toBe(200);
    expect(cookie).toContain('session_token');

    expect(await auditStatus(cookie)).toBe(403);
    expect((await callAuth('/admin/list-users', undefined, { cookie })).status).toBe(403);
    const user = await getSessionUser(new Headers({ cookie }));
    expect(user).toMatchObject({ emailVerified: false, roles: [], isAdmin: false });

    // The operator verifies it (what `npm run users -- verify` does): the next request is an admin's.
    const db = await getDb();
    await markEmailVerified(db, user?.id as string);
    expect(await auditStatus(cookie)).toBe(200);
    expect(await getSessionUser(new Headers({ cookie }))).toMatchObject({ roles: ['admin'], isAdmin: true });
  });

  it('sends a verification link over SMTP_URL; following it verifies the email, grants admin and keeps the guest’s chats', async () => {
    smtp = await startSmtpCapture();
    await configureServer({ SMTP_URL: smtp.url, TOOLGATE_ADMIN_EMAILS: 'admin@example.com' });
    const guestCookie = defaultTestCookie() as string;
    const guestUser = await getSessionUser(new Headers({ cookie: guestCookie }));
    const turn = await chat(jsonRequest('/api/chat', { id: 'guest-chat', message: userMessage('hello') }));
    await new ChatStreamReader(turn).rest();

    const { response, cookie: signUpCookie } = await signUp('admin@example.com', password, {
      cookie: guestCookie,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ token: null });
    expect(signUpCookie).not.toContain('session_token');
    // Not verified yet: no session.
    expect((await signIn('admin@example.com')).response.status).toBe(403);

    // The same browser: it sends what the sign-up set beside its guest session.
    const link = verificationLinkOf(await smtp.mailTo('admin@example.com'));
    const followed = await callAuth(link, undefined, { cookie: `${guestCookie}; ${signUpCookie}` });
    expect([200, 302]).toContain(followed.status);
    const cookie = cookieHeaderOf(followed);
    expect(cookie).toContain('session_token');

    const user = await getSessionUser(new Headers({ cookie }));
    expect(user).toMatchObject({ email: 'admin@example.com', emailVerified: true, roles: ['admin'] });
    expect(await auditStatus(cookie)).toBe(200);
    expect(user?.id).not.toBe(guestUser?.id);
    const chats = (await (await listChats(getRequest('/api/chats', { cookie }))).json()) as { id: string }[];
    expect(chats.map((entry) => entry.id)).toEqual(['guest-chat']);
    expect((await listAccountEvents(await getDb())).map((event) => event.action)).toContain('email-verified');
  });

  it('verifies nothing and signs nobody in when a link is opened in another browser than the one that signed up', async () => {
    smtp = await startSmtpCapture();
    await configureServer({ SMTP_URL: smtp.url });
    // The attacker signs up in their own browser and takes the link from their own inbox.
    expect((await signUp('attacker@evil.test')).response.status).toBe(200);
    const link = verificationLinkOf(await smtp.mailTo('attacker@evil.test'));

    // A guest with a chat of their own is made to open it (a link on another site).
    const victimCookie = defaultTestCookie() as string;
    const victim = await getSessionUser(new Headers({ cookie: victimCookie }));
    const turn = await chat(jsonRequest('/api/chat', { id: 'victim-chat', message: userMessage('private') }));
    await new ChatStreamReader(turn).rest();
    const followed = await callAuth(link, undefined, {
      cookie: victimCookie,
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(followed.status).toBe(403);
    expect(await followed.json()).toEqual({ error: expect.stringMatching(/browser/) });
    expect(cookieHeaderOf(followed)).not.toContain('session_token');

    expect(await getSessionUser(new Headers({ cookie: victimCookie }))).toMatchObject({ id: victim?.id });
    const chats = (await (await listChats(getRequest('/api/chats', { cookie: victimCookie }))).json()) as {
      id: string;
    }[];
    expect(chats.map((entry) => entry.id)).toEqual(['victim-chat']);
    expect(await findAccountByEmail(await getDb(), 'attacker@evil.test')).toMatchObject({
      emailVerified: false,
    });
  });

  it('gives an admin email that someone else signed up to nobody: the owner’s link does not verify the squatter’s account', async () => {
    smtp = await startSmtpCapture();
    await configureServer({ SMTP_URL: smtp.url, TOOLGATE_ADMIN_EMAILS: 'admin@example.com' });
    const squatter = await callAuth('/sign-up/email', {
      email: 'admin@example.com',
      password,
      name: 'Your IT desk asks you to click',
    });
    expect(squatter.status).toBe(200);
    // Each sign-in with the squatter's password mails the owner a fresh link.
    expect((await signIn('admin@example.com')).response.status).toBe(403);

    for (const index of [0, 1]) {
      const mail = await smtp.mailTo('admin@example.com', { index });
      expect(mail.raw).not.toContain('IT desk');
      expect(mail.raw).toContain('Hello admin@example.com');
      // The owner opens it in their own browser, which never signed up.
      const followed = await callAuth(verificationLinkOf(mail));
      expect(followed.status).toBe(403);
      expect(cookieHeaderOf(followed)).not.toContain('session_token');
    }
    expect(await findAccountByEmail(await getDb(), 'admin@example.com')).toMatchObject({
      emailVerified: false,
    });
    expect((await signIn('admin@example.com')).response.status).toBe(403);
    expect((await listAccountEvents(await getDb())).map((event) => event.action)).not.toContain(
      'email-verified',
    );
  });

  it('lets the owner verify in another browser after signing in there: that sign-in mails a link for it', async () => {
    smtp = await startSmtpCapture();
    await configureServer({ SMTP_URL: smtp.url });
    expect((await signUp('traveller@example.com')).response.status).toBe(200);
    const phone = await signIn('traveller@example.com');
    expect(phone.response.status).toBe(403);
    const wrong = await signIn('traveller@example.com', 'not the passphrase at all');
    expect(wrong.response.status).toBe(401);
    expect(wrong.cookie).toBe('');

    const followed = await callAuth(
      verificationLinkOf(await smtp.mailTo('traveller@example.com', { index: 1 })),
      undefined,
      {
        cookie: phone.cookie,
      },
    );
    expect([200, 302]).toContain(followed.status);
    const cookie = cookieHeaderOf(followed);
    expect(await getSessionUser(new Headers({ cookie }))).toMatchObject({
      email: 'traveller@example.com',
      emailVerified: true,
    });
  });

  it('answers a sign-up for an email that has an account exactly like one for a new email', async () => {
    smtp = await startSmtpCapture();
    await configureServer({ SMTP_URL: smtp.url });
    expect((await signUp('taken@example.com')).response.status).toBe(200);

    const again = await signUp('taken@example.com', 'another long passphrase');
    const fresh = await signUp('fresh@example.com', 'another long passphrase');
    expect(again.response.status).toBe(fresh.response.status);
    const againBody = (await again.response.json()) as { token: unknown; user: Record<string, unknown> };
    const freshBody = (await fresh.response.json()) as { token: unknown; user: Record<string, unknown> };
    expect(againBody.token).toBeNull();
    expect(Object.keys(againBody.user).sort()).toEqual(Object.keys(freshBody.user).sort());
    // The same cookies with the same attributes; only their values differ.
    const shapeOf = (response: Response) =>
      response.headers
        .getSetCookie()
        .map((cookie) => cookie.replace(/^([^=]+)=[^;]*/, '$1=…').replace(/Max-Age=\d+/i, 'Max-Age=…'));
    expect(shapeOf(again.response)).toEqual(shapeOf(fresh.response));
  });

  it('refuses email sign-up in production when no mail can be sent, unless unverified sign-up is allowed', async () => {
    asProduction();
    await configureServer();
    const { response } = await signUp('someone@example.com');
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: expect.stringMatching(/SMTP_URL/) });
    expect(await findAccountByEmail(await getDb(), 'someone@example.com')).toBeUndefined();
  });

  it('prints the link in the server log in development, at the address the browser used', async () => {
    await configureServer({ BETTER_AUTH_URL: undefined });
    const log = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    try {
      const response = await callAuth(
        '/sign-up/email',
        { email: 'dev@example.com', password, name: 'Dev' },
        { headers: { host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000' } },
      );
      expect(response.status).toBe(200);
      const line = log.mock.calls
        .map((call) => String(call[0]))
        .find((text) => text.includes('dev@example.com'));
      expect(line).toMatch(
        /Verification link for dev@example\.com .*http:\/\/127\.0\.0\.1:3000\/api\/auth\/verify-email\?token=/,
      );
    } finally {
      log.mockRestore();
    }
  });

  it('refuses an email in full-width or combining forms at sign-up', async () => {
    await configureServer({ TOOLGATE_ADMIN_EMAILS: 'admin@example.com' });
    const { response } = await signUp('ａdmin@example.com');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: expect.stringMatching(/plain characters/) });
  });
});

describe('admin endpoints', () => {
  it('refuse impersonation, setting passwords, creating users and setting roles, even to a verified admin', async () => {
    await configureServer({ TOOLGATE_ADMIN_EMAILS: 'admin@example.com' });
    const admin = await verifiedUser('admin@example.com');
    const victim = await verifiedUser('victim@example.com');
    expect(await auditStatus(admin.cookie)).toBe(200);

    const refused: [string, Record<string, unknown>][] = [
      ['/admin/impersonate-user', { userId: victim.id }],
      ['/admin/set-user-password', { userId: victim.id, newPassword: 'attacker chosen passphrase' }],
      ['/admin/create-user', { email: 'new@example.com', password: 'another long one', name: 'x' }],
      ['/admin/set-role', { userId: victim.id, role: 'admin' }],
      ['/admin/remove-user', { userId: victim.id }],
    ];
    for (const [path, body] of refused) {
      const response = await callAuth(path, body, { cookie: admin.cookie });
      expect(response.status, path).toBe(404);
      expect(await response.json()).toEqual({ error: expect.any(String) });
    }
    expect((await signIn('victim@example.com')).response.status).toBe(200);
  });

  it('let a verified admin ban a user, whose copied cookie stops working at once, and audit it', async () => {
    await configureServer({ TOOLGATE_ADMIN_EMAILS: 'admin@example.com' });
    const admin = await verifiedUser('admin@example.com');
    const victim = await verifiedUser('victim@example.com');
    expect((await listChats(getRequest('/api/chats', { cookie: victim.cookie }))).status).toBe(200);

    const other = await verifiedUser('other@example.com');
    expect((await callAuth('/admin/ban-user', { userId: victim.id }, { cookie: other.cookie })).status).toBe(
      403,
    );

    const banned = await callAuth('/admin/ban-user', { userId: victim.id }, { cookie: admin.cookie });
    expect(banned.status).toBe(200);
    expect((await listChats(getRequest('/api/chats', { cookie: victim.cookie }))).status).toBe(401);
    expect(await listAccountEvents(await getDb())).toContainEqual(
      expect.objectContaining({ actorId: admin.id, action: 'admin/ban-user', targetUserId: victim.id }),
    );
  });
});

describe('sessions', () => {
  it('end at sign-out: a copy of the cookie is refused on the next request', async () => {
    await configureServer();
    const { cookie } = await verifiedUser('leaver@example.com');
    const copied = cookie;
    expect((await listChats(getRequest('/api/chats', { cookie: copied }))).status).toBe(200);
    expect((await callAuth('/sign-out', {}, { cookie })).status).toBe(200);
    expect((await listChats(getRequest('/api/chats', { cookie: copied }))).status).toBe(401);
  });
});

describe('abuse limits', () => {
  it('lock an account after 10 failed sign-ins, from however many addresses', async () => {
    await configureServer({ TOOLGATE_SIGNIN_FAILURE_LIMIT: '', TOOLGATE_TRUST_PROXY: '1' });
    await verifiedUser('target@example.com');
    for (let attempt = 1; attempt <= 10; attempt++) {
      const { response } = await signIn('Target@example.com', `wrong guess number ${attempt}`, {
        headers: { 'x-forwarded-for': `198.51.100.${attempt}` },
      });
      expect(response.status, `attempt ${attempt}`).toBe(401);
    }
    const locked = await signIn('target@example.com', password, {
      headers: { 'x-forwarded-for': '203.0.113.99' },
    });
    expect(locked.response.status).toBe(429);
    expect(await locked.response.json()).toEqual({ error: expect.stringMatching(/failed sign-ins/) });
    expect(Number(locked.response.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('count sign-ins per socket address; a client-written X-Forwarded-For is ignored without a trusted proxy', async () => {
    await configureServer({ TOOLGATE_SIGNIN_RATE_LIMIT: '5/60s' });
    const from = (attempt: number) => ({
      headers: { 'x-toolgate-client-address': '203.0.113.5', 'x-forwarded-for': `198.51.100.${attempt}` },
    });
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await signIn(`nobody${attempt}@example.com`, password, from(attempt))).response.status).toBe(
        401,
      );
    }
    const sixth = await signIn('nobody6@example.com', password, from(6));
    expect(sixth.response.status).toBe(429);
    expect(await sixth.response.json()).toEqual({ error: expect.stringMatching(/this address/) });
    // Another socket address has a budget of its own.
    const elsewhere = await signIn('nobody7@example.com', password, {
      headers: { 'x-toolgate-client-address': '203.0.113.6' },
    });
    expect(elsewhere.response.status).toBe(401);
  });

  it('bound sign-ups and verification mails per email, from however many addresses (5 per hour)', async () => {
    smtp = await startSmtpCapture();
    await configureServer({ SMTP_URL: smtp.url, TOOLGATE_VERIFICATION_MAIL_LIMIT: '' });
    const from = (attempt: number) => ({ headers: { 'x-toolgate-client-address': `203.0.113.${attempt}` } });
    expect((await signUp('victim@example.com', password, from(1))).response.status).toBe(200);
    for (let attempt = 2; attempt <= 5; attempt++) {
      const resend = await callAuth(
        '/send-verification-email',
        { email: 'Victim@example.com' },
        from(attempt),
      );
      expect(resend.status, `mail ${attempt}`).toBe(200);
    }
    const sixth = await callAuth('/send-verification-email', { email: 'victim@example.com' }, from(6));
    expect(sixth.status).toBe(429);
    expect(await sixth.json()).toEqual({ error: expect.stringMatching(/for this email/) });
    expect((await signUp('victim@example.com', password, from(7))).response.status).toBe(429);
  });

  it('count every verification mail to one mailbox, sign-in resends and +tags included (5 per hour)', async () => {
    smtp = await startSmtpCapture();
    await configureServer({ SMTP_URL: smtp.url, TOOLGATE_VERIFICATION_MAIL_LIMIT: '' });
    const from = (attempt: number) => ({ headers: { 'x-toolgate-client-address': `203.0.113.${attempt}` } });
    const toVictim = () => smtp?.mails.filter((mail) => mail.to.some((to) => to.startsWith('victim+'))) ?? [];

    expect((await signUp('victim+one@example.com', password, from(1))).response.status).toBe(200);
    for (let attempt = 2; attempt <= 4; attempt++) {
      expect((await signIn('victim+one@example.com', password, from(attempt))).response.status).toBe(403);
    }
    expect((await signUp('Victim+two@example.com', password, from(5))).response.status).toBe(200);
    await smtp.mailTo('victim+two@example.com');
    expect(toVictim()).toHaveLength(5);

    // Sign-in still answers as before, but mails no more.
    for (let attempt = 6; attempt <= 9; attempt++) {
      expect((await signIn('victim+two@example.com', password, from(attempt))).response.status).toBe(403);
      expect((await signIn('victim+one@example.com', password, from(attempt))).response.status).toBe(403);
    }
    const resend = await callAuth(
      '/send-verification-email',
      { email: 'victim+three@example.com' },
      from(10),
    );
    expect(resend.status).toBe(429);
    expect(await resend.json()).toEqual({ error: expect.stringMatching(/for this email/) });
    expect(toVictim()).toHaveLength(5);
  });

  it('limit new guest sessions per address by default (30 per 10 minutes)', async () => {
    await configureServer({ TOOLGATE_GUEST_RATE_LIMIT: '' });
    const headers = { 'x-toolgate-client-address': '203.0.113.7' };
    for (let count = 1; count <= 30; count++) {
      const response = await callAuth('/sign-in/anonymous', {}, { headers });
      expect(response.status, `guest ${count}`).toBe(200);
    }
    const refused = await callAuth('/sign-in/anonymous', {}, { headers });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: expect.stringMatching(/new sessions/) });
    const page = await guest(authRequest('/guest?redirectUrl=/', undefined, { headers }));
    expect(page.status).toBe(429);
  });

  it('take a profile image only as a string of at most 2048 characters, or null, changing nothing else', async () => {
    await configureServer();
    const { id, cookie } = await verifiedUser('pictured@example.com');
    for (const image of [[1], { a: 1 }, 42, `https://example.com/${'x'.repeat(2048)}`]) {
      const response = await callAuth('/update-user', { image }, { cookie });
      expect(response.status, JSON.stringify(image).slice(0, 40)).toBe(400);
      expect(await response.json()).toEqual({ error: expect.stringMatching(/image/) });
    }
    const signUpWithImage = await callAuth('/sign-up/email', {
      email: 'big-image@example.com',
      password,
      name: 'x',
      image: { a: 1 },
    });
    expect(signUpWithImage.status).toBe(400);
    expect(await findAccountByEmail(await getDb(), 'big-image@example.com')).toBeUndefined();

    expect((await callAuth('/update-user', { image: 'https://example.com/me.png' }, { cookie })).status).toBe(
      200,
    );
    expect((await callAuth('/update-user', { image: null }, { cookie })).status).toBe(200);
    expect(await getSessionUser(new Headers({ cookie }))).toMatchObject({ id });
  });

  it('cap auth bodies at 16 KB and field lengths, creating nothing', async () => {
    await configureServer();
    const cases: [Record<string, string>, number][] = [
      [{ email: 'big@example.com', password, name: 'x'.repeat(5 * 1024 * 1024) }, 413],
      [{ email: 'big@example.com', password, name: 'x'.repeat(101) }, 400],
      [{ email: `${'x'.repeat(250)}@example.com`, password, name: 'x' }, 400],
      [{ email: 'big@example.com', password: 'p'.repeat(129), name: 'x' }, 400],
    ];
    for (const [body, status] of cases) {
      const response = await callAuth('/sign-up/email', body);
      expect(response.status).toBe(status);
      expect(await response.json()).toEqual({ error: expect.any(String) });
    }
    expect(await findAccountByEmail(await getDb(), 'big@example.com')).toBeUndefined();
  });
});

describe('auth request bodies', () => {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const multipart = { 'content-type': 'multipart/form-data; boundary=b0undary' };
  const multipartBody = (fields: Record<string, string>) =>
    `${Object.entries(fields)
      .map(
        ([key, value]) => `--b0undary\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`,
      )
      .join('')}--b0undary--\r\n`;

  it('refuse a sign-up that is not JSON with 415, creating no account', async () => {
    await configureServer();
    const fields = { email: 'form@example.com', password: '1234567890', name: 'x'.repeat(500) };
    for (const [headers, body] of [
      [form, new URLSearchParams(fields).toString()],
      [multipart, multipartBody(fields)],
      [{ 'content-type': 'text/plain' }, JSON.stringify(fields)],
      [{ 'content-type': 'application/json, application/x-www-form-urlencoded' }, JSON.stringify(fields)],
    ] as const) {
      const response = await callAuth('/sign-up/email', body, { headers });
      expect(response.status, headers['content-type']).toBe(415);
      expect(await response.json()).toEqual({ error: expect.stringMatching(/application\/json/) });
    }
    expect(await findAccountByEmail(await getDb(), 'form@example.com')).toBeUndefined();
  });

  it('refuse a form-encoded sign-in with 415, so a locked account stays locked', async () => {
    await configureServer({ TOOLGATE_SIGNIN_FAILURE_LIMIT: '' });
    await verifiedUser('locked@example.com');
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect((await signIn('locked@example.com', `wrong guess ${attempt}`)).response.status).toBe(401);
    }
    const body = new URLSearchParams({ email: 'locked@example.com', password }).toString();
    for (const headers of [form, multipart]) {
      const response = await callAuth(
        '/sign-in/email',
        headers === form ? body : multipartBody({ email: 'locked@example.com', password }),
        { headers },
      );
      expect(response.status, headers['content-type']).toBe(415);
      expect(cookieHeaderOf(response)).not.toContain('session_token');
    }
    const anonymous = await callAuth('/sign-in/anonymous', '', { headers: form });
    expect(anonymous.status).toBe(415);
    const resend = await callAuth(
      '/send-verification-email',
      multipartBody({ email: 'locked@example.com' }),
      {
        headers: multipart,
      },
    );
    expect(resend.status).toBe(415);
  });

  it('still take a POST without a body or content type (sign-out, a new guest)', async () => {
    await configureServer();
    const guestSession = await callAuth('/sign-in/anonymous', undefined, { method: 'POST' });
    expect(guestSession.status).toBe(200);
    expect(cookieHeaderOf(guestSession)).toContain('session_token');

    const { cookie } = await verifiedUser('bodiless@example.com');
    expect((await callAuth('/sign-out', undefined, { cookie, method: 'POST' })).status).toBe(200);
    expect((await listChats(getRequest('/api/chats', { cookie }))).status).toBe(401);
  });
});

describe('passwords', () => {
  it('refuse short and common passwords, saying why', async () => {
    await configureServer();
    const short = await signUp('short@example.com', '12345678');
    expect(short.response.status).toBe(400);
    expect(await short.response.json()).toEqual({ error: expect.stringMatching(/at least 10 characters/) });
    for (const common of ['password123', 'Password1234', '1234567890', 'qwertyuiop']) {
      const { response } = await signUp('common@example.com', common);
      expect(response.status, common).toBe(400);
      expect(await response.json()).toEqual({ error: expect.stringMatching(/too common/) });
    }
    expect(await findAccountByEmail(await getDb(), 'common@example.com')).toBeUndefined();
  });
});

describe('guest redirect', () => {
  it('never sends a browser off this site, however the path is written', async () => {
    await configureServer();
    for (const target of [
      '/..//evil.example/x',
      '//evil.example/x',
      '/\\evil.example/x',
      '/\\/evil.example',
      '/./\\evil.example',
      '/%2F%2Fevil.example',
      '/\t/evil.example',
      'https://evil.example/',
      '/a/../..//evil.example',
    ]) {
      const response = await guest(authRequest(`/guest?redirectUrl=${encodeURIComponent(target)}`));
      expect(response.status, target).toBe(303);
      const location = response.headers.get('location') ?? '';
      expect(new URL(location, 'http://localhost').origin, `${target} → ${location}`).toBe(
        'http://localhost',
      );
      expect(location, target).toMatch(/^\/(?![/\\])/);
    }
    const kept = await guest(authRequest(`/guest?redirectUrl=${encodeURIComponent('/chat/abc?x=1')}`));
    expect(kept.headers.get('location')).toBe('/chat/abc?x=1');
  });
});
