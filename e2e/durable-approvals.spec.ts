import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat';

/*
 * A person's decision waits for the person, not for the browser tab: the card of a
 * waiting approval is saved with the chat and answered from the server's record,
 * whether the page that asked is still open or not.
 */

/** Sends a ticket request and returns the chat's address once its card waits for a decision. */
async function askForTicket(chatPage: ChatPage, title: string): Promise<string> {
  await chatPage.goto('/');
  await chatPage.send(`帮我创建一个工单：${title}`);
  const card = chatPage.toolCards('createTicket').last();
  await expect(chatPage.allowButton(card)).toBeEnabled();
  await expect(chatPage.page).toHaveURL(/\/chat\/[\w-]+$/);
  return chatPage.page.url();
}

test.describe('a waiting approval card', () => {
  test('is still answerable after a reload: it counts down, and Allow creates the ticket', async ({
    chatPage,
    page,
  }) => {
    await askForTicket(chatPage, '刷新后允许');
    const card = chatPage.toolCards('createTicket').last();
    // Let some of the 60 s pass, so a countdown restarted by the reload would show.
    await expect.poll(() => chatPage.secondsLeft(card), { timeout: 15_000 }).toBeLessThanOrEqual(55);

    await page.reload();
    await expect(chatPage.allowButton(card)).toBeEnabled();
    await expect(chatPage.countdown(card)).toHaveText(/^\d+ 秒后自动拒绝$/);
    const secondsAfterReload = await chatPage.secondsLeft(card);
    // It counts on from the time the server says is left, not from the full timeout.
    expect(secondsAfterReload).toBeLessThanOrEqual(55);
    // A frozen number would be a card that only looks answerable.
    await expect.poll(() => chatPage.secondsLeft(card), { timeout: 10_000 }).toBeLessThan(secondsAfterReload);

    await chatPage.allowButton(card).click();
    await expect(card.getByText('已允许', { exact: true })).toBeVisible();
    const ticketId = await chatPage.ticketIdIn(card);
    await chatPage.waitForTurnEnd();
    await expect(chatPage.agentMessages.last()).toContainText(ticketId);
    await expect(chatPage.tickets(ticketId)).toHaveCount(1);
  });

  test('can be allowed once its turn has parked (nobody watched it), and the reply streams in', async ({
    chatPage,
    context,
  }) => {
    const chatUrl = await askForTicket(chatPage, '停放后再允许');
    await chatPage.page.close();
    // Parked: the turn has left the server's memory; the chat has no running stream any more.
    const chatId = chatUrl.split('/').pop() ?? '';
    await expect
      .poll(
        async () =>
          ((await (await context.request.get(`/api/chats/${chatId}`)).json()) as { activeStream: unknown })
            .activeStream,
        {
          timeout: 15_000,
        },
      )
      .toBeNull();

    const reopened = new ChatPage(await context.newPage());
    await reopened.goto(chatUrl);
    const card = reopened.toolCards('createTicket').last();
    await reopened.allowButton(card).click();
    await expect(card.getByText('已允许', { exact: true })).toBeVisible();
    const ticketId = await reopened.ticketIdIn(card);
    await reopened.waitForTurnEnd();
    await expect(reopened.agentMessages.last()).toContainText(ticketId);
    await expect(reopened.page.getByText('出错了。')).toHaveCount(0);
  });

  test('can be allowed from a new tab after the tab that asked was closed', async ({ chatPage, context }) => {
    const chatUrl = await askForTicket(chatPage, '关掉标签页后允许');
    await chatPage.page.close();

    const reopened = new ChatPage(await context.newPage());
    await reopened.goto(chatUrl);
    const card = reopened.toolCards('createTicket').last();
    await expect(reopened.countdown(card)).toHaveText(/^\d+ 秒后自动拒绝$/);
    await reopened.allowButton(card).click();
    await expect(card.getByText('已允许', { exact: true })).toBeVisible();
    const ticketId = await reopened.ticketIdIn(card);
    await reopened.waitForTurnEnd();
    await expect(reopened.agentMessages.last()).toContainText(ticketId);
    await expect(reopened.tickets(ticketId)).toHaveCount(1);
  });

  test('Stop cancels it, and after a reload it is still settled: no spinner, no buttons, no ticket', async ({
    chatPage,
    page,
  }) => {
    await askForTicket(chatPage, '停止后取消');
    const card = chatPage.toolCards('createTicket').last();

    await chatPage.stopButton.click();
    await expect(card.getByText('已取消', { exact: true })).toBeVisible();
    await expect(chatPage.allowButton(card)).toHaveCount(0);
    await chatPage.waitForTurnEnd();

    await page.reload();
    // The saved chat has loaded once the outcome is back; what must be absent is checked after it.
    await expect(card.getByText('已取消', { exact: true })).toBeVisible();
    await expect(chatPage.inFlightBadge(card)).toHaveCount(0);
    await expect(chatPage.allowButton(card)).toHaveCount(0);
    await expect(chatPage.denyButton(card)).toHaveCount(0);
    await expect(chatPage.countdown(card)).toHaveCount(0);
    await chatPage.waitForTurnEnd();
    expect(await chatPage.loadedTickets('停止后取消')).toBe(0);
  });
});

// Runs in the project whose server has AGENT_CONFIRM_TIMEOUT_MS=3000.
test('a card that expired while no page was open shows 已过期 when the chat is opened again', {
  tag: '@short-approval-timeout',
}, async ({ chatPage, context }) => {
  const chatUrl = await askForTicket(chatPage, '无人在看时过期');
  await chatPage.page.close();
  // Well past the 3 s deadline, with nobody looking at the chat.
  await new Promise((resolve) => setTimeout(resolve, 6_000));

  const reopened = new ChatPage(await context.newPage());
  await reopened.goto(chatUrl);
  const card = reopened.toolCards('createTicket').last();
  await expect(card.getByText('已过期', { exact: true })).toBeVisible();
  await expect(reopened.inFlightBadge(card)).toHaveCount(0);
  await expect(reopened.allowButton(card)).toHaveCount(0);
  await expect(reopened.countdown(card)).toHaveCount(0);
  expect(await reopened.loadedTickets('无人在看时过期')).toBe(0);
});
