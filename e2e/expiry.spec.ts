import { expect, screenshotForDocs, test } from './fixtures';

// Runs in the project whose server has AGENT_CONFIRM_TIMEOUT_MS=3000.
test('an unanswered approval expires: the card shows 已过期 and no ticket is created', {
  tag: '@short-approval-timeout',
}, async ({ chatPage }) => {
  await chatPage.goto('/');
  await chatPage.send('帮我创建一个工单：过期测试');

  const card = chatPage.toolCards('createTicket').last();
  await expect(card.getByRole('timer')).toHaveText(/^[0-3] 秒后自动拒绝$/);
  await expect(card.getByText('已过期', { exact: true })).toBeVisible({ timeout: 10_000 });
  await expect(chatPage.allowButton(card)).toHaveCount(0);
  await expect(chatPage.denyButton(card)).toHaveCount(0);

  await chatPage.waitForTurnEnd();
  // Still 已过期 once the server's own timeout denial has arrived.
  await expect(card.getByText('已过期', { exact: true })).toBeVisible();
  await expect(chatPage.agentMessages.last().getByTestId('assistant-text').last()).toContainText(/超时|过期/);
  await expect(chatPage.ticketsPanel).toBeVisible();
  await expect(chatPage.tickets('过期测试')).toHaveCount(0);
  await screenshotForDocs(card, 'approval-card-expired.png');
});
