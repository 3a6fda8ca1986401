import { mailHeader, mailText, type SmtpCapture, startSmtpCapture } from '../tests/support/smtp-capture';
import { expect, test } from './fixtures';
import { ensureStandingSupervisors, users } from './pages/approvers';
import { ChatPage } from './pages/chat';

/*
 * Runs in the project whose server has an approval policy: a ticket titled "需要主管"
 * waits for someone holding the role `supervisor`, never for the requester; one titled
 * "两位主管" waits for two of them. Only a signed-in user with a verified email may ask a
 * supervisor; a guest is told to sign in.
 */

// The policy server mails approvers here (playwright.config.ts sets the port); sign-ups mail it too.
let smtp: SmtpCapture;
test.beforeAll(async () => {
  smtp = await startSmtpCapture({ port: Number(process.env.E2E_APPROVERS_SMTP_PORT) });
});
test.afterAll(async () => {
  await smtp?.stop();
});
// A role step asked of nobody who could fill it is refused at once: supervisors exist from the start.
test.beforeAll(async ({ browser }, testInfo) => {
  test.setTimeout(90_000);
  await ensureStandingSupervisors(browser, testInfo.project.use.baseURL);
});

/** Signs the browser of `page` up and in as a verified account (its guest's chats come along), then reloads. */
async function signInVerified(
  page: import('@playwright/test').Page,
  baseURL: string | undefined,
  name: string,
) {
  const email = `requester-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = 'a long unusual passphrase for tests';
  const signUp = await page.request.post('/api/auth/sign-up/email', {
    data: { email, password, name },
    headers: { origin: baseURL ?? '' },
  });
  expect(signUp.ok()).toBe(true);
  await users('verify', email);
  const signIn = await page.request.post('/api/auth/sign-in/email', {
    data: { email, password },
    headers: { origin: baseURL ?? '' },
  });
  expect(signIn.ok()).toBe(true);
  await page.reload();
}

/**
 * Signs the chat's browser in as a verified requester and asks for a ticket titled `title`:
 * its card, once it says whom it waits for, and the approval's id.
 */
async function askAsVerifiedRequester(chatPage: ChatPage, baseURL: string | undefined, title: string) {
  await chatPage.goto('/');
  await signInVerified(chatPage.page, baseURL, '申请人');
  await chatPage.send(`帮我创建一个工单：${title}`);
  const card = chatPage.toolCards('createTicket').last();
  await expect(card.getByTestId('approval-waiting-for')).toBeVisible();
  const approvalId = (await card.getAttribute('data-approval-id')) ?? '';
  expect(approvalId).not.toBe('');
  return { card, approvalId };
}

test('a guest who asks for a supervisor gets no card and is told to sign in', async ({ chatPage }) => {
  await chatPage.goto('/');
  await chatPage.send('帮我创建一个工单：需要主管');
  await expect(chatPage.agentMessages.last()).toContainText('请登录后再向主管申请', { timeout: 15_000 });
  await expect(chatPage.page.getByTestId('approval-waiting-for')).toHaveCount(0);
  // Nobody declined it: the card never says the guest did.
  await expect(chatPage.agentMessages.last()).not.toContainText('你已拒绝');
  await expect(chatPage.agentMessages.last()).toContainText('在询问任何人之前就被拒绝');
});

test('a signed-in user asks, a supervisor approves on the approval page, the requester sees the result and the reply live', async ({
  chatPage,
  browser,
  baseURL,
}) => {
  const { card, approvalId } = await askAsVerifiedRequester(chatPage, baseURL, '需要主管');
  // The requester's card says whom it waits for, and offers no Allow: the step is not theirs.
  await expect(card.getByTestId('approval-waiting-for')).toHaveText('等待主管批准 · 0 / 1');
  await expect(chatPage.allowButton(card)).toHaveCount(0);
  await expect(chatPage.denyButton(card)).toBeEnabled();

  // The supervisor, in a browser of their own.
  const supervisorContext = await browser.newContext({ baseURL, locale: 'zh-CN' });
  const supervisor = new ChatPage(await supervisorContext.newPage());
  const email = `sup-${Date.now()}@example.com`;
  const password = 'a long unusual passphrase for tests';
  await supervisor.goto('/');
  const signUp = await supervisor.page.request.post('/api/auth/sign-up/email', {
    data: { email, password, name: '王主管' },
    headers: { origin: baseURL ?? '' },
  });
  expect(signUp.ok()).toBe(true);
  await users('verify', email);
  await users('grant', email, 'supervisor');
  const signIn = await supervisor.page.request.post('/api/auth/sign-in/email', {
    data: { email, password },
    headers: { origin: baseURL ?? '' },
  });
  expect(signIn.ok()).toBe(true);

  await supervisor.page.goto(`/approvals/${approvalId}`);
  const approverCard = supervisor.toolCards('createTicket');
  await expect(approverCard.getByTestId('approval-waiting-for')).toHaveText('等待主管批准 · 0 / 1');
  await supervisor.allowButton(approverCard).click();
  await expect(approverCard.getByText('已允许', { exact: true })).toBeVisible();

  // The requester's page learns of it without a reload: the card settles and the reply streams in.
  await expect(card.getByText('已允许', { exact: true })).toBeVisible({ timeout: 15_000 });
  const ticketId = await chatPage.ticketIdIn(card);
  await expect(chatPage.agentMessages.last()).toContainText(ticketId, { timeout: 15_000 });
  await supervisorContext.close();

  // The requester's activity names who decided, the rule that asked, and the wait.
  await chatPage.page.goto('/activity');
  const decision = chatPage.page.getByTestId('audit-decision').first();
  await expect(decision).toContainText('决定人：王主管');
  await expect(decision).toContainText('规则：rules[0]: createTicket');
  await expect(decision).toContainText(/等待 \d+ 秒/);
});

test('the approval page is the 404 page for a signed-in account that may not decide, and sign-in for a guest', async ({
  chatPage,
  browser,
  baseURL,
}) => {
  const { approvalId } = await askAsVerifiedRequester(chatPage, baseURL, '需要主管');

  const guestContext = await browser.newContext({ baseURL, locale: 'zh-CN' });
  const guest = await guestContext.newPage();
  await guest.goto(`/approvals/${approvalId}`);
  await expect(guest.getByTestId('approval-sign-in')).toBeVisible();
  await guestContext.close();

  const otherContext = await browser.newContext({ baseURL, locale: 'zh-CN' });
  const other = await otherContext.newPage();
  await other.goto('/');
  const email = `plain-${Date.now()}@example.com`;
  const password = 'a long unusual passphrase for tests';
  await other.request.post('/api/auth/sign-up/email', {
    data: { email, password, name: 'plain' },
    headers: { origin: baseURL ?? '' },
  });
  await users('verify', email);
  await other.request.post('/api/auth/sign-in/email', {
    data: { email, password },
    headers: { origin: baseURL ?? '' },
  });
  const response = await other.goto(`/approvals/${approvalId}`);
  expect(response?.status()).toBe(404);
  await otherContext.close();
});

/** A verified supervisor signed in, in a browser of their own, with the inbox open. */
async function supervisorInbox(
  browser: import('@playwright/test').Browser,
  baseURL: string | undefined,
  name: string,
  slug: string,
) {
  const context = await browser.newContext({ baseURL, locale: 'zh-CN' });
  const page = await context.newPage();
  const email = `inbox-${slug}-${Date.now()}@example.com`;
  const password = 'a long unusual passphrase for tests';
  await page.goto('/');
  const signUp = await page.request.post('/api/auth/sign-up/email', {
    data: { email, password, name },
    headers: { origin: baseURL ?? '' },
  });
  expect(signUp.ok()).toBe(true);
  await users('verify', email);
  await users('grant', email, 'supervisor');
  const signIn = await page.request.post('/api/auth/sign-in/email', {
    data: { email, password },
    headers: { origin: baseURL ?? '' },
  });
  expect(signIn.ok()).toBe(true);
  await page.goto('/approvals');
  return { context, page };
}

test('a supervisor’s inbox receives a signed-in user’s request live and decides it by keyboard; the requester’s page and a second inbox follow', async ({
  chatPage,
  browser,
  baseURL,
}) => {
  // Three accounts made through the operators' CLI (a few seconds each) before the walk begins.
  test.setTimeout(90_000);
  const first = await supervisorInbox(browser, baseURL, '主管甲', 'first');
  const second = await supervisorInbox(browser, baseURL, '主管乙', 'second');
  const { card, approvalId } = await askAsVerifiedRequester(chatPage, baseURL, '需要主管');
  await expect(card.getByTestId('approval-waiting-for')).toHaveText('等待主管批准 · 0 / 1');

  // Both inboxes show it without a reload; the sidebar and the tab title count it.
  for (const { page } of [first, second]) {
    const item = page.locator(`[data-inbox-item="${approvalId}"]`);
    await expect(item).toBeVisible({ timeout: 15_000 });
    await expect(item).toContainText('帮我创建一个工单：需要主管');
    await expect(page.getByTestId('inbox-count').first()).toHaveText(/^\d+$/);
    await expect(page).toHaveTitle(/^\(\d+\) /);
  }
  await expect(first.page.getByTestId('inbox-keys')).toBeVisible();
  expect(await seriousAxeViolations(first.page)).toEqual([]);

  // Keyboard: j moves down the list (oldest first) until this request is selected, a allows it.
  const mine = first.page.locator(`[data-inbox-item="${approvalId}"]`);
  await first.page.locator('h1').click();
  const items = await first.page.locator('[data-inbox-item]').count();
  // k moves up a step (focus may already be in a card: the page moves it to the first that waits), then j walks down to this request, the newest.
  await first.page.keyboard.press('k');
  for (let step = 0; step < items && (await mine.getAttribute('data-selected')) !== 'true'; step += 1) {
    await first.page.keyboard.press('j');
  }
  await expect(mine).toHaveAttribute('data-selected', 'true');
  await expect(mine).toBeFocused();
  await first.page.keyboard.press('a');

  // The requester's card settles live; the item leaves both inboxes.
  await expect(card.getByText('已允许', { exact: true })).toBeVisible({ timeout: 15_000 });
  for (const { page } of [first, second]) {
    await expect(page.locator(`[data-inbox-item="${approvalId}"]`)).toHaveCount(0, { timeout: 15_000 });
  }

  // "Decided by me" lists it for the one who decided, and nothing for the other.
  await first.page.getByRole('tab', { name: '我已审批' }).click();
  await expect(first.page.getByText('你已允许')).toBeVisible();
  await second.page.getByRole('tab', { name: '我已审批' }).click();
  await expect(second.page.getByTestId('inbox-decided-empty')).toBeVisible();
  await first.context.close();
  await second.context.close();
});

test('an allow given to an input another supervisor has since edited is refused as stale; the card shows the new input', async ({
  chatPage,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const { card, approvalId } = await askAsVerifiedRequester(chatPage, baseURL, '两位主管');

  const first = await supervisorInbox(browser, baseURL, '主管丁', 'stale-first');
  const second = await supervisorInbox(browser, baseURL, '主管戊', 'stale-second');
  // The first supervisor's page hears of no change: it shows the input as it was when it opened.
  await first.page.route('**/api/approvals/events**', (route) => route.abort());
  await first.page.goto(`/approvals/${approvalId}`);
  const firstCard = new ChatPage(first.page).toolCards('createTicket');
  await expect(firstCard).toBeVisible();
  await expect(firstCard).not.toContainText('戊改过');

  // Meanwhile the second supervisor edits the call and allows it.
  const seen = (await (await second.page.request.get(`/api/approvals/${approvalId}`)).json()) as {
    inputDigest: string;
  };
  const edited = await second.page.request.post('/api/chat/approve', {
    data: {
      approvalId,
      approved: true,
      input: { title: '两位主管', detail: '戊改过' },
      inputDigest: seen.inputDigest,
    },
    headers: { origin: baseURL ?? '' },
  });
  expect(await edited.json()).toEqual({ status: 'waiting' });

  // The first supervisor's allow was given to the old input: refused, and the card reads the new one.
  await new ChatPage(first.page).allowButton(firstCard).click();
  await expect(firstCard.getByTestId('stale-input')).toBeVisible();
  await expect(firstCard).toContainText('戊改过');
  const view = (await (await first.page.request.get(`/api/approvals/${approvalId}`)).json()) as {
    status: string;
  };
  expect(view.status).toBe('pending');

  // Allowed again, now on what it says: the call runs with the edit.
  await new ChatPage(first.page).allowButton(firstCard).click();
  await expect(firstCard.getByText('已允许', { exact: true })).toBeVisible();
  await expect(card.getByText('已允许', { exact: true })).toBeVisible({ timeout: 15_000 });
  await first.context.close();
  await second.context.close();
});

test('in the inbox, d opens the reason of a denial, and letters typed there stay in the field', async ({
  chatPage,
  browser,
  baseURL,
}) => {
  const inbox = await supervisorInbox(browser, baseURL, '主管丙', 'third');
  const { card, approvalId } = await askAsVerifiedRequester(chatPage, baseURL, '需要主管');
  const item = inbox.page.locator(`[data-inbox-item="${approvalId}"]`);
  await expect(item).toBeVisible({ timeout: 15_000 });
  await item.focus();
  await inbox.page.keyboard.press('d');
  const reason = item.getByRole('textbox');
  await expect(reason).toBeFocused();
  // "a", "j" and "d" typed into the reason are text, not commands.
  await inbox.page.keyboard.type('jad 不需要');
  await expect(reason).toHaveValue('jad 不需要');
  await item.getByRole('button', { name: '拒绝', exact: true }).click();
  await expect(card.getByText('jad 不需要')).toBeVisible({ timeout: 15_000 });
  await expect(item).toHaveCount(0, { timeout: 15_000 });
  await inbox.context.close();
});

/** The axe rules broken on the page, at the impacts that stop or seriously hinder someone. */
async function seriousAxeViolations(page: import('@playwright/test').Page) {
  const { default: AxeBuilder } = await import('@axe-core/playwright');
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      nodes: violation.nodes.map((node) => node.target.join(' ')),
    }));
}

test('a supervisor is mailed when a request waits for them, follows the link, signs in and allows; the requester’s page follows', async ({
  chatPage,
  browser,
  baseURL,
}) => {
  // The supervisor exists before the request: the mail goes to the role's verified holders.
  const email = `mailed-${Date.now()}@example.com`;
  const password = 'a long unusual passphrase for tests';
  const supervisorContext = await browser.newContext({ baseURL, locale: 'zh-CN' });
  const supervisor = new ChatPage(await supervisorContext.newPage());
  const signUp = await supervisor.page.request.post('/api/auth/sign-up/email', {
    data: { email, password, name: '邮件主管' },
    headers: { origin: baseURL ?? '' },
  });
  expect(signUp.ok()).toBe(true);
  await users('verify', email);
  await users('grant', email, 'supervisor');

  const { card, approvalId } = await askAsVerifiedRequester(chatPage, baseURL, '需要主管');
  await expect(card.getByTestId('approval-waiting-for')).toHaveText('等待主管批准 · 0 / 1');

  // The mail: the call, who asked, the wait as people read it, and the link to the approval.
  const mailsOfApproval = () =>
    smtp.mails.filter(
      (mail) => mail.to.includes(email) && mailHeader(mail, 'X-Toolgate-Approval') === approvalId,
    );
  await expect.poll(() => mailsOfApproval().length, { timeout: 15_000 }).toBe(1);
  const text = mailText(mailsOfApproval()[0]);
  expect(text).toContain('需要主管');
  expect(text).toContain('申请人');
  expect(text).toMatch(/Answer within: (\d+ s|1 min)/);
  const link = /https?:\/\/\S+\/approvals\/\S+/.exec(text)?.[0] ?? '';
  expect(new URL(link).pathname).toBe(`/approvals/${approvalId}`);

  // The link alone grants nothing: opened before signing in, it asks for a sign-in.
  await supervisor.page.goto(link);
  await expect(supervisor.page.getByTestId('approval-sign-in')).toBeVisible();
  const signIn = await supervisor.page.request.post('/api/auth/sign-in/email', {
    data: { email, password },
    headers: { origin: baseURL ?? '' },
  });
  expect(signIn.ok()).toBe(true);
  await supervisor.page.goto(link);
  const approverCard = supervisor.toolCards('createTicket');
  await supervisor.allowButton(approverCard).click();
  await expect(approverCard.getByText('已允许', { exact: true })).toBeVisible();

  // The requester's page learns of it without a reload.
  await expect(card.getByText('已允许', { exact: true })).toBeVisible({ timeout: 15_000 });
  await supervisorContext.close();
});
