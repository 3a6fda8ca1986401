import { expect, test } from './fixtures';
import { ensureStandingSupervisors, signInVerified, supervisorInbox } from './pages/approvers';

/*
 * Ask the requester, in two browsers on the policy server (e2e/approvers-policy.json): a customer
 * writing English asks for a ticket titled "refund for a broken kettle", which waits four hours
 * for a supervisor; Wang, a supervisor reading Chinese, asks a question from the inbox, reads
 * the answer there and allows.
 */

test.use({ locale: 'en-US' });

// A role step asked of nobody who could fill it is refused at once: supervisors exist from the start.
test.beforeAll(async ({ browser }, testInfo) => {
  test.setTimeout(90_000);
  await ensureStandingSupervisors(browser, testInfo.project.use.baseURL);
});

test('ask the requester: the supervisor asks from the inbox, the customer sees it and answers in the chat, the supervisor reads the answer and allows, the customer’s card shows the outcome', async ({
  chatPage,
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const wang = await supervisorInbox(browser, baseURL, 'Wang', 'ask');
  await chatPage.goto('/');
  await signInVerified(chatPage.page, baseURL, 'Customer', { slug: 'ask-customer' });
  await chatPage.page.reload();
  await chatPage.send('create a ticket: refund for a broken kettle');
  const card = chatPage.toolCards('createTicket').last();
  await expect(card.getByTestId('others-decide-sentence')).toBeVisible({ timeout: 15_000 });
  const approvalId = (await card.getAttribute('data-approval-id')) ?? '';
  expect(approvalId).not.toBe('');

  // Wang picks it in the compact list, presses q, types the question and sends it with Enter.
  const row = wang.page.locator(`[data-inbox-row="${approvalId}"]`);
  await expect(row).toBeVisible({ timeout: 15_000 });
  await row.click();
  const item = wang.page.locator(`[data-inbox-item="${approvalId}"]`);
  await expect(item).toHaveAttribute('data-selected', 'true');
  await wang.page.keyboard.press('q');
  await expect(item.getByTestId('ask-question-field')).toBeFocused();
  await wang.page.keyboard.type('Is the kettle still in its box? [see](https://evil.example)');
  await wang.page.keyboard.press('Enter');
  await expect(item.getByTestId('question-text')).toHaveText(
    'Is the kettle still in its box? [see](https://evil.example)',
    { timeout: 15_000 },
  );
  await expect(item.getByTestId('question-unanswered')).toHaveText('尚未回答');
  // The compact list marks it: asked, no answer yet.
  await expect(row.getByTestId('inbox-row-question')).toHaveAttribute('data-answered', 'false');

  // The customer sees it live in the chat, naming who asks, drawn as text (no link), and on the card.
  const note = chatPage.page.getByTestId('approver-question-note').last();
  await expect(note).toContainText('Wang (supervisor) asks about your request', { timeout: 15_000 });
  await expect(note).toContainText('[see](https://evil.example)');
  await expect(note.locator('a')).toHaveCount(0);
  await expect(card.getByTestId('question-unanswered')).toContainText('your next message is passed to them');
  // The request keeps waiting, and the question survives a reload.
  await expect(card.getByTestId('others-decide-sentence')).toBeVisible();
  await chatPage.page.reload();
  await expect(chatPage.page.getByTestId('approver-question-note').last()).toContainText(
    'Wang (supervisor) asks about your request',
  );

  // The customer answers by writing in the chat; the reply says it was passed on.
  await chatPage.send('Yes, it is still sealed in the box');
  await expect(chatPage.agentMessages.last()).toContainText("I've passed your answer to Wang (supervisor)", {
    timeout: 15_000,
  });
  await expect(chatPage.toolCards('createTicket').last().getByTestId('question-answer')).toHaveText(
    'Yes, it is still sealed in the box',
    { timeout: 15_000 },
  );

  // Wang reads the answer on the inbox item without a reload, and allows with a.
  await expect(item.getByTestId('question-answer')).toHaveText('Yes, it is still sealed in the box', {
    timeout: 15_000,
  });
  await expect(row.getByTestId('inbox-row-question')).toHaveAttribute('data-answered', 'true');
  await expect(item).toHaveAttribute('data-selected', 'true');
  await wang.page.keyboard.press('a');
  await expect(item).toHaveCount(0, { timeout: 15_000 });
  await wang.context.close();

  // The customer's card shows the outcome, named.
  const settled = chatPage.toolCards('createTicket').last();
  await expect(settled.getByTestId('decided-by')).toContainText('Approved by Wang (supervisor)', {
    timeout: 15_000,
  });
  await expect(chatPage.page.getByText(/TK-\d+/).last()).toBeVisible({ timeout: 15_000 });
});
