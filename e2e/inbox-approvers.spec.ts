import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from './fixtures';
import { askForTicket, ensureStandingSupervisors, signInVerified, supervisorInbox } from './pages/approvers';
import { ChatPage } from './pages/chat';

/*
 * The approver's side, in the project whose server has an approval policy (a ticket titled
 * "慢慢审批" waits half an hour for one supervisor, "两位主管" for two): what each click did,
 * the keyboard, an edit the policy refuses, a decision after the policy changed.
 */

test.beforeAll(async ({ browser }, testInfo) => {
  test.setTimeout(90_000);
  await ensureStandingSupervisors(browser, testInfo.project.use.baseURL);
});

/** The requester's browser signed in as a verified account. */
async function signedInRequester(chatPage: ChatPage, baseURL: string | undefined) {
  await chatPage.goto('/');
  await signInVerified(chatPage.page, baseURL, '申请人');
  await chatPage.page.reload();
}

test('keyboard only: the first j selects the oldest, k goes back, a allows, d + a reason + Enter denies; each click’s outcome is shown', async ({
  chatPage,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const inbox = await supervisorInbox(browser, baseURL, '键盘主管', 'keys');
  await signedInRequester(chatPage, baseURL);
  // Two chats: the requester's page stays on the newer one.
  const older = await askForTicket(chatPage, '慢慢审批');
  const newer = await askForTicket(chatPage, '慢慢审批');

  // A fresh load with both waiting (the page moves focus to the first card on its own).
  await inbox.page.reload();
  const olderItem = inbox.page.locator(`[data-inbox-item="${older.approvalId}"]`);
  const newerItem = inbox.page.locator(`[data-inbox-item="${newer.approvalId}"]`);
  await expect(olderItem).toBeVisible({ timeout: 15_000 });
  await expect(newerItem).toBeVisible();
  // The compact list names both: who asked, what, how long, until when.
  await expect(inbox.page.locator(`[data-inbox-row="${older.approvalId}"]`)).toContainText('申请人');

  const items = inbox.page.locator('[data-inbox-item]');
  const count = await items.count();
  const olderIndex = await olderItem.evaluate((element) =>
    [...document.querySelectorAll('[data-inbox-item]')].indexOf(element),
  );
  // The first j goes to the oldest item of all; j walks on to the older request, k steps back.
  await inbox.page.keyboard.press('j');
  await expect(items.first()).toHaveAttribute('data-selected', 'true');
  for (let step = 0; step < olderIndex; step += 1) await inbox.page.keyboard.press('j');
  await expect(olderItem).toHaveAttribute('data-selected', 'true');
  if (olderIndex + 1 < count) {
    await inbox.page.keyboard.press('j');
    await expect(olderItem).not.toHaveAttribute('data-selected', 'true');
    await inbox.page.keyboard.press('k');
    await expect(olderItem).toHaveAttribute('data-selected', 'true');
  }
  await inbox.page.keyboard.press('a');

  // The item leaves and says what the click did: the ticket it made.
  await expect(olderItem).toHaveCount(0, { timeout: 15_000 });
  const olderNote = inbox.page.locator(`[data-settled-item="${older.approvalId}"]`);
  await expect(olderNote).toContainText(/已执行：TK-\d+/, { timeout: 15_000 });

  // j to the newer one, d, the reason, Enter: denied with that reason.
  const newerIndex = await newerItem.evaluate((element) =>
    [...document.querySelectorAll('[data-inbox-item]')].indexOf(element),
  );
  await inbox.page.locator('h1').click();
  for (let step = 0; step <= newerIndex; step += 1) await inbox.page.keyboard.press('j');
  await expect(newerItem).toHaveAttribute('data-selected', 'true');
  await inbox.page.keyboard.press('d');
  const reason = newerItem.getByRole('textbox');
  await expect(reason).toBeFocused();
  await inbox.page.keyboard.type('预算不够');
  await inbox.page.keyboard.press('Shift+Enter');
  await inbox.page.keyboard.type('下月再说');
  await expect(reason).toHaveValue('预算不够\n下月再说');
  await inbox.page.keyboard.press('Enter');
  await expect(newerItem).toHaveCount(0, { timeout: 15_000 });
  // Said to the supervisor as their own "no", not in the third person.
  await expect(inbox.page.locator(`[data-settled-item="${newer.approvalId}"]`)).toContainText('你已拒绝');
  await expect(olderNote).toContainText('你已允许');
  await expect(newer.card).toContainText('预算不够', { timeout: 15_000 });

  // "Decided by me" says how each ended, not only what this person clicked.
  await inbox.page.getByRole('tab', { name: '我已审批' }).click();
  const outcomes = inbox.page.getByTestId('inbox-decided-outcome');
  await expect(outcomes).toHaveCount(2);
  await expect(outcomes.filter({ hasText: /已执行：TK-\d+/ })).toHaveCount(1);
  await expect(outcomes.filter({ hasText: '什么都没有执行' })).toHaveCount(1);
  await expect(outcomes.filter({ hasText: '键盘主管' })).toHaveCount(0);
  await inbox.context.close();
});

test('an edit the policy refuses keeps the card’s controls and shows the server’s reason', async ({
  chatPage,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const inbox = await supervisorInbox(browser, baseURL, '编辑主管', 'edit');
  await signedInRequester(chatPage, baseURL);
  const { card, approvalId } = await askForTicket(chatPage, '慢慢审批');
  const item = inbox.page.locator(`[data-inbox-item="${approvalId}"]`);
  await expect(item).toBeVisible({ timeout: 15_000 });

  // "两位主管" would need two supervisors: this approval cannot become that.
  await item.getByRole('button', { name: '修改', exact: true }).click();
  await item.getByRole('textbox', { name: /^标题/ }).fill('两位主管');
  await item.getByRole('button', { name: '按修改后的参数允许' }).click();
  // The reason is the server's, in the reader's language.
  await expect(item.getByTestId('decision-refused')).toContainText('需要与原请求不同的审批人');
  await expect(item).not.toContainText('决定未能送达');
  // Nothing was decided: the form and its buttons are still there, and the call still waits.
  await expect(item.getByRole('button', { name: '按修改后的参数允许' })).toBeEnabled();
  await item.getByRole('button', { name: '取消' }).click();
  await new ChatPage(inbox.page).allowButton(item).click();
  await expect(card.getByText('已允许', { exact: true })).toBeVisible({ timeout: 15_000 });
  await inbox.context.close();
});

test('an Allow given after the policy changed to refuse the call says it was refused by the policy now, and is listed as decided', async ({
  chatPage,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const policyPath = resolve('e2e/approvers-policy.json');
  const original = readFileSync(policyPath, 'utf8');
  const inbox = await supervisorInbox(browser, baseURL, '规则主管', 'policy');
  await signedInRequester(chatPage, baseURL);
  const { card, approvalId } = await askForTicket(chatPage, '慢慢审批');
  const item = inbox.page.locator(`[data-inbox-item="${approvalId}"]`);
  await expect(item).toBeVisible({ timeout: 15_000 });
  try {
    // The operator now refuses these tickets; the server picks the edit up within seconds.
    const policy = JSON.parse(original) as { rules: unknown[] };
    policy.rules.unshift({ tool: 'createTicket', when: { title: { eq: '慢慢审批' } }, effect: 'deny' });
    writeFileSync(policyPath, `${JSON.stringify(policy, null, 2)}\n`);
    await new Promise((done) => setTimeout(done, 7_000));

    await new ChatPage(inbox.page).allowButton(item).click();
    await expect(item).toHaveCount(0, { timeout: 15_000 });
    await expect(inbox.page.locator(`[data-settled-item="${approvalId}"]`)).toContainText(
      '现行审批规则拒绝了这次调用',
    );
    await expect(card.getByTestId('policy-changed')).toBeVisible({ timeout: 15_000 });

    await inbox.page.getByRole('tab', { name: '我已审批' }).click();
    const decided = inbox.page.getByRole('listitem').filter({ hasText: '你已允许' });
    await expect(decided.getByTestId('inbox-decided-outcome')).toHaveText(/现行审批规则拒绝了这次调用/);
  } finally {
    writeFileSync(policyPath, original);
    // The server is back on the file as committed before the next spec asks anything.
    await new Promise((done) => setTimeout(done, 7_000));
    await inbox.context.close();
  }
});
