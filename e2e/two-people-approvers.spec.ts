import { mkdirSync } from 'node:fs';
import type { Browser, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ensureStandingSupervisors, signInVerified as signInVerifiedAccount } from './pages/approvers';
import { ChatPage } from './pages/chat';

/*
 * Two people, one request, in two browsers on the policy server (e2e/approvers-policy.json):
 * a customer writing English asks; a supervisor reading Chinese decides on the approval page.
 * A ticket titled "refund for a broken kettle" waits four hours for a supervisor, one titled
 * "quick look" six seconds; a refund above 50 waits for a supervisor; any other
 * ticket asks its requester (60 s). Screenshots of each situation go to docs/screenshots/.
 */

test.use({ locale: 'en-US' });

// A role step asked of nobody who could fill it is refused at once: supervisors exist from the start,
// so this spec passes on its own as well as after the others.
test.beforeAll(async ({ browser }, testInfo) => {
  test.setTimeout(90_000);
  await ensureStandingSupervisors(browser, testInfo.project.use.baseURL);
});

/** Signs the browser of `page` up and in as a verified account named `name`, holding `role` when given. */
async function signInVerified(page: Page, baseURL: string | undefined, name: string, role?: string) {
  await page.goto('/');
  await signInVerifiedAccount(page, baseURL, name, { slug: name.toLowerCase(), role });
  await page.reload();
}

/** A supervisor named Wang, reading Chinese, in a browser of their own. */
async function supervisorWang(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL, locale: 'zh-CN' });
  const page = await context.newPage();
  await signInVerified(page, baseURL, 'Wang', 'supervisor');
  return { context, page, chat: new ChatPage(page) };
}

/** A small PNG of the situation for the closing note. */
async function shoot(locator: Locator | Page, name: string) {
  mkdirSync('docs/screenshots', { recursive: true });
  await locator.screenshot({ path: `docs/screenshots/${name}.png`, animations: 'disabled', caret: 'hide' });
}

/** The customer asks for `title`; the card that waits for a supervisor and its approval id. */
async function askForSupervisor(customer: ChatPage, title: string) {
  await customer.send(`create a ticket: ${title}`);
  const card = customer.toolCards('createTicket').last();
  await expect(card.getByTestId('others-decide-sentence')).toBeVisible({ timeout: 15_000 });
  const approvalId = (await card.getAttribute('data-approval-id')) ?? '';
  expect(approvalId).not.toBe('');
  return { card, approvalId };
}

test('a follow-up keeps the request waiting and gets its status; a withdrawal ends it for the supervisor too', async ({
  chatPage,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await chatPage.goto('/');
  await signInVerified(chatPage.page, baseURL, 'Customer');
  const { card, approvalId } = await askForSupervisor(chatPage, 'refund for a broken kettle');
  // Who, until when, and that the page may be closed; no "(1)": nothing is the customer's to do.
  await expect(card.getByTestId('others-decide-sentence')).toContainText('Waiting for a supervisor');
  await expect(card.getByTestId('others-decide-sentence')).toContainText('You may close this page');
  await expect(card.getByRole('button', { name: '+60 s' })).toHaveCount(0);
  await expect(chatPage.page).not.toHaveTitle(/^\(\d+\)/);

  await chatPage.send('any update on my refund?');
  await expect(chatPage.agentMessages.last()).toContainText('is still waiting for a supervisor', {
    timeout: 15_000,
  });
  await expect(card.getByTestId('others-decide-sentence')).toBeVisible();
  await shoot(chatPage.page, '1-follow-up-while-waiting');

  const wang = await supervisorWang(browser, baseURL);
  await wang.page.goto(`/approvals/${approvalId}`);
  await expect(wang.chat.toolCards('createTicket')).toBeVisible();

  await chatPage.send('cancel the refund request please');
  await expect(chatPage.agentMessages.last()).toContainText('I withdrew', { timeout: 15_000 });
  // The supervisor's page hears of it: nothing is left to decide there.
  await wang.page.reload();
  await expect(wang.chat.toolCards('createTicket').getByTestId('withdrawn')).toContainText('申请人已撤回', {
    timeout: 15_000,
  });
  await shoot(wang.page, '1b-withdrawn-on-the-approval-page');
  await wang.context.close();
});

test('a supervisor’s denial with a note is theirs on the customer’s card, in the reply and after a reload', async ({
  chatPage,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await chatPage.goto('/');
  await signInVerified(chatPage.page, baseURL, 'Customer');
  const { card, approvalId } = await askForSupervisor(chatPage, 'refund for a broken kettle');

  const wang = await supervisorWang(browser, baseURL);
  await wang.page.goto(`/approvals/${approvalId}`);
  const approverCard = wang.chat.toolCards('createTicket');
  await approverCard.getByRole('button', { name: '拒绝并说明…' }).click();
  await approverCard.getByRole('textbox').fill('A refund ticket is already open for this order');
  await approverCard.getByRole('button', { name: '拒绝', exact: true }).click();
  await wang.context.close();

  await expect(card.getByTestId('decided-by')).toContainText('Denied by Wang (supervisor)', {
    timeout: 15_000,
  });
  await expect(card.getByTestId('denial-note')).toContainText('A refund ticket is already open');
  await expect(chatPage.page.getByText('Their note').first()).toBeVisible();
  await expect(chatPage.agentMessages.last()).toContainText('Wang (supervisor) declined', {
    timeout: 15_000,
  });
  await expect(chatPage.agentMessages.last()).not.toContainText('You said');
  await chatPage.page.reload();
  const reloaded = chatPage.toolCards('createTicket').last();
  await expect(reloaded.getByTestId('decided-by')).toContainText('Denied by Wang (supervisor)');
  await shoot(chatPage.page, '2-denied-with-a-note-by-the-supervisor');
});

test('a supervisor’s edit shows what ran and who changed it, and the undo is theirs', async ({
  chatPage,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await chatPage.goto('/');
  await signInVerified(chatPage.page, baseURL, 'Customer');
  await chatPage.send('refund $150 on A1002, it arrived broken');
  const card = chatPage.toolCards('issueRefund').last();
  await expect(card.getByTestId('others-decide-sentence')).toBeVisible({ timeout: 15_000 });
  const approvalId = (await card.getAttribute('data-approval-id')) ?? '';

  const wang = await supervisorWang(browser, baseURL);
  await wang.page.goto(`/approvals/${approvalId}`);
  const approverCard = wang.chat.toolCards('issueRefund');
  await approverCard.getByRole('button', { name: '修改', exact: true }).click();
  const amount = approverCard.getByRole('spinbutton').first();
  await amount.fill('120');
  await approverCard.getByRole('button', { name: '按修改后的参数允许' }).click();
  await expect(approverCard.getByText('已允许', { exact: true })).toBeVisible({ timeout: 15_000 });
  await wang.context.close();

  await expect(card.getByTestId('edited-by')).toContainText(
    'Edited by Wang (supervisor): amount: 150 → 120',
    {
      timeout: 15_000,
    },
  );
  await expect(card.getByTestId('tool-summary')).toContainText('120');
  await expect(card.getByTestId('undo-belongs-to')).toContainText('only a supervisor can undo it');
  await expect(chatPage.agentMessages.last()).toContainText('Wang (supervisor) changed the request', {
    timeout: 15_000,
  });
  await expect(chatPage.agentMessages.last()).not.toContainText('You edited');
  await shoot(chatPage.page, '3-edited-by-the-supervisor');
});

test('the customer’s own card is one sentence with Allow and Deny; “never mind” declines it with their words', async ({
  chatPage,
  baseURL,
}) => {
  await chatPage.goto('/');
  await signInVerified(chatPage.page, baseURL, 'Customer');
  await chatPage.send('create a ticket: printer broken');
  const card = chatPage.toolCards('createTicket').last();
  await expect(card.getByTestId('approval-sentence')).toContainText('Allow it?', { timeout: 15_000 });
  for (const name of ['More', 'Deny', 'Allow'])
    await expect(card.getByRole('button', { name, exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Edit', exact: true })).toHaveCount(0);
  await card.getByTestId('more-actions').click();
  await expect(card.getByTestId('more-actions-row')).toBeVisible();
  await shoot(card, '6-own-card-one-sentence-allow-deny-more');
  await card.getByTestId('more-actions').click();

  // The composer is never dead: Enter sends while the card waits, and says what it will do.
  await expect(chatPage.page.getByTestId('composer-hint')).toContainText('never mind');
  await shoot(chatPage.page, '4a-typing-while-the-own-card-waits');
  await chatPage.send('never mind');
  await expect(chatPage.agentMessages.last()).toContainText('OK, I cancelled', { timeout: 15_000 });
  await expect(card.getByTestId('denial-note')).toContainText('never mind');
  await shoot(chatPage.page, '4b-never-mind-declines-the-own-card');
});

test('a request nobody decides in time gets a reply, live and after a reload', async ({
  chatPage,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await chatPage.goto('/');
  await signInVerified(chatPage.page, baseURL, 'Customer');
  const { card } = await askForSupervisor(chatPage, 'quick look');
  await shoot(card, '5a-waiting-for-someone-else');
  await expect(chatPage.page.getByText('nobody decided it in time').first()).toBeVisible({ timeout: 30_000 });
  await expect(card.getByText('Expired', { exact: true })).toBeVisible();
  await chatPage.page.reload();
  await expect(chatPage.page.getByText('nobody decided it in time').first()).toBeVisible();
  await shoot(chatPage.page, '5b-expired-with-a-reply');
});

test('an allow from the customer’s own card goes through the server action', async ({
  chatPage,
  baseURL,
}) => {
  await chatPage.goto('/');
  await signInVerified(chatPage.page, baseURL, 'Customer');
  const posts: string[] = [];
  chatPage.page.on('request', (request) => {
    if (request.method() === 'POST') posts.push(new URL(request.url()).pathname);
  });
  await chatPage.send('create a ticket: desk lamp flickers');
  const card = chatPage.toolCards('createTicket').last();
  await chatPage.allowButton(card).click();
  await expect(card.getByText('Approved', { exact: true })).toBeVisible({ timeout: 15_000 });
  await chatPage.ticketIdIn(card);
  expect(posts).not.toContain('/api/chat/approve');
  await shoot(card, '7-allowed-through-the-server-action');
});
