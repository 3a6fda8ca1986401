import { request as playwrightRequest } from '@playwright/test';
import { type SmtpCapture, startSmtpCapture } from '../tests/support/smtp-capture';
import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat';
import { signUpAndFollowLink } from './pages/sign-up';

// The main server mails verification links here (playwright.config.ts sets the port).
let smtp: SmtpCapture;
test.beforeAll(async () => {
  smtp = await startSmtpCapture({ port: Number(process.env.E2E_SMTP_PORT) });
});
test.afterAll(async () => {
  await smtp?.stop();
});

/*
 * Two people on one deployment, each in a browser of their own. Each gets a guest
 * session on the first visit; nothing of one is visible to, or decidable by, the other.
 */
test('two guests see only their own tickets, todos, chats and approvals', async ({
  browser,
  chatPage,
  page,
  baseURL,
}) => {
  await chatPage.goto('/');
  await expect(page.getByTestId('guest-badge')).toBeVisible();
  await chatPage.send('加一个待办：买一盒燕麦奶');
  await chatPage.waitForTurnEnd();
  await chatPage.send('帮我创建一个工单：只有我能批准');
  const card = chatPage.toolCards('createTicket').last();
  await expect(chatPage.allowButton(card)).toBeVisible();
  const approvalId = await card.getAttribute('data-approval-id');
  const chatId = new URL(page.url()).pathname.split('/').pop() as string;

  const other = await browser.newContext({ baseURL, locale: 'zh-CN' });
  try {
    const otherPage = await other.newPage();
    const stranger = new ChatPage(otherPage);
    await stranger.goto('/');
    const session = (await other.cookies()).find((cookie) => cookie.name.endsWith('session_token'));
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');

    const decision = await other.request.post('/api/chat/approve', {
      data: { approvalId, sessionId: chatId, approved: true },
    });
    expect(decision.status()).toBe(404);
    expect((await other.request.get(`/api/chats/${chatId}`)).status()).toBe(404);
    expect((await other.request.delete(`/api/chats/${chatId}`)).status()).toBe(404);
    expect(await (await other.request.get('/api/chats')).json()).toEqual([]);
    expect(await (await other.request.get('/api/todos')).json()).toEqual([]);
    expect((await other.request.get('/api/audit')).status()).toBe(403);

    // The stranger's own listTodos tool sees the stranger's list only.
    await stranger.send('列出待办');
    await stranger.waitForTurnEnd();
    await expect(stranger.agentMessages.last()).not.toContainText('买一盒燕麦奶');
    await expect(stranger.todosPanel).not.toContainText('买一盒燕麦奶');
  } finally {
    await other.close();
  }

  await chatPage.allowButton(card).click();
  await chatPage.waitForTurnEnd();
  await expect(chatPage.agentMessages.last()).toContainText(/TK-\d{6}/);
  await expect(chatPage.todosPanel).toContainText('买一盒燕麦奶');
});

test('an HTTP client without a session gets 401, and one with a guest session gets its own data', async ({
  baseURL,
}) => {
  const anonymous = await playwrightRequest.newContext({ baseURL });
  try {
    for (const path of ['/api/chats', '/api/tickets', '/api/todos', '/api/meta', '/api/activity']) {
      const response = await anonymous.get(path);
      expect(response.status(), path).toBe(401);
      expect(await response.json()).toEqual({ error: expect.any(String) });
    }
    const signIn = await anonymous.post('/api/auth/sign-in/anonymous', { data: {} });
    expect(signIn.ok()).toBe(true);
    expect((await anonymous.get('/api/tickets')).status()).toBe(200);
  } finally {
    await anonymous.dispose();
  }
});

test('signing up keeps the guest’s chats, and signing in elsewhere shows them', async ({
  browser,
  chatPage,
  page,
  baseURL,
}) => {
  const email = `guest-${Date.now()}@example.com`;
  await chatPage.goto('/');
  await chatPage.send('加一个待办：注册后还在');
  await chatPage.waitForTurnEnd();
  const chatId = new URL(page.url()).pathname.split('/').pop() as string;

  const followLink = await signUpAndFollowLink(page, smtp, email);
  await followLink();
  await expect(chatPage.chatsNav.getByRole('link', { name: /注册后还在/ })).toBeVisible();

  const elsewhere = await browser.newContext({ baseURL, locale: 'zh-CN' });
  try {
    const otherPage = await elsewhere.newPage();
    const other = new ChatPage(otherPage);
    await other.goto('/');
    await otherPage.getByRole('button', { name: /^(登录|Sign in)$/ }).click();
    await otherPage.getByLabel(/^(邮箱|Email)$/).fill(email);
    await otherPage.getByLabel(/^(密码|Password)/).fill('correct horse battery');
    await otherPage.getByRole('button', { name: /^(登录|Sign in)$/ }).click();
    await expect(otherPage.getByTestId('signed-in-as')).toContainText(email);
    await expect(other.chatsNav.getByRole('link', { name: /注册后还在/ })).toBeVisible();
    await expect(other.todosPanel).toContainText('注册后还在');
    expect((await elsewhere.request.get(`/api/chats/${chatId}`)).status()).toBe(200);
  } finally {
    await elsewhere.close();
  }
});

test('the audit log is for admins; everyone sees their own activity', async ({ chatPage, page }) => {
  await chatPage.goto('/');
  await chatPage.send('加一个待办：审计里能看到');
  await chatPage.waitForTurnEnd();
  await page.goto('/audit');
  await expect(page.getByText(/仅对管理员开放|for admins/)).toBeVisible();
  await page.goto('/activity');
  await expect(page.getByRole('cell', { name: 'addTodo' })).toBeVisible();
  // The row says what the call did, in the reader's language: the tool's own summary.
  await expect(page.getByRole('cell', { name: '添加待办「审计里能看到」' })).toBeVisible();

  // An admin (listed in TOOLGATE_ADMIN_EMAILS for this server) sees every user's rows, but only
  // once the email is verified: signing up with the address is not enough.
  await chatPage.goto('/');
  const followLink = await signUpAndFollowLink(page, smtp, 'Admin@Example.com');
  await page.goto('/audit');
  await expect(page.getByText(/仅对管理员开放|for admins/)).toBeVisible();
  await followLink();
  await page.goto('/audit');
  await expect(page.getByRole('columnheader', { name: /^(用户|User)$/ })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'addTodo' }).first()).toBeVisible();
  await expect(page.getByRole('cell', { name: '添加待办「审计里能看到」' })).toBeVisible();
});
