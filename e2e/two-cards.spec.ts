import { expect, test } from './fixtures';
import type { ChatPage } from './pages/chat';

/** Asks for two tickets in one message and returns both cards once both wait. */
async function twoWaitingCards(chatPage: ChatPage, first: string, second: string) {
  await chatPage.send(`帮我创建一个工单：${first}，再创建一个工单：${second}`);
  const cards = chatPage.toolCards('createTicket');
  await expect(cards).toHaveCount(2);
  for (const card of await cards.all()) await expect(chatPage.allowButton(card)).toBeVisible();
  return [cards.filter({ hasText: first }), cards.filter({ hasText: second })] as const;
}

test.describe('two cards at once (zh)', () => {
  test('Two tickets asked for in one message wait side by side and are decided one by one', async ({
    chatPage,
    page,
  }) => {
    await chatPage.goto('/');
    const [printer, screen] = await twoWaitingCards(chatPage, '打印机坏了', '屏幕闪烁');
    await expect(page).toHaveTitle(/^\(2\) /);

    await chatPage.allowButton(printer).click();
    await expect(printer.getByText('已允许', { exact: true })).toBeVisible();
    // The other card is still waiting for its own decision.
    await expect(chatPage.allowButton(screen)).toBeVisible();
    await expect(page).toHaveTitle(/^\(1\) /);

    await chatPage.denyButton(screen).click();
    await expect(screen.getByText('已拒绝', { exact: true })).toBeVisible();
    await chatPage.waitForTurnEnd();
    await expect(chatPage.tickets('打印机坏了')).toHaveCount(1);
    expect(await chatPage.loadedTickets('屏幕闪烁')).toBe(0);
    // The reply tells both outcomes: the ticket that was created and the request that was declined.
    const ticketId = await chatPage.ticketIdIn(chatPage.tickets('打印机坏了'));
    const reply = chatPage.agentMessages.last().getByTestId('assistant-text').last();
    await expect(reply).toContainText(`已为你创建工单 ${ticketId}：打印机坏了`);
    await expect(reply).toContainText('「屏幕闪烁」已被拒绝');
  });

  test('Allow all decides both waiting cards, and both tickets are created', async ({ chatPage, page }) => {
    await chatPage.goto('/');
    const [projector, aircon] = await twoWaitingCards(chatPage, '投影仪没声音', '空调漏水');
    await page.getByRole('button', { name: '全部允许（2）' }).click();
    await expect(projector.getByText('已允许', { exact: true })).toBeVisible();
    await expect(aircon.getByText('已允许', { exact: true })).toBeVisible();
    await chatPage.waitForTurnEnd();
    await expect(chatPage.tickets('投影仪没声音')).toHaveCount(1);
    await expect(chatPage.tickets('空调漏水')).toHaveCount(1);
  });

  test('Deny all decides both waiting cards, and no ticket is created', async ({ chatPage, page }) => {
    await chatPage.goto('/');
    const [badge, lift] = await twoWaitingCards(chatPage, '门禁卡失效', '电梯异响');
    await page.getByRole('button', { name: '全部拒绝（2）' }).click();
    await expect(badge.getByText('已拒绝', { exact: true })).toBeVisible();
    await expect(lift.getByText('已拒绝', { exact: true })).toBeVisible();
    await chatPage.waitForTurnEnd();
    expect(await chatPage.loadedTickets(/门禁卡失效|电梯异响/)).toBe(0);
  });
});

test.describe('two cards at once (en)', () => {
  test.use({ locale: 'en-US' });

  test('One card allowed and the other denied: the reply names the new ticket and the declined request', async ({
    chatPage,
  }) => {
    await chatPage.goto('/');
    await chatPage.send('create a ticket: kettle leaks and create a ticket: fan rattles');
    const cards = chatPage.toolCards('createTicket');
    await expect(cards).toHaveCount(2);
    const kettle = cards.filter({ hasText: 'kettle leaks' });
    const fan = cards.filter({ hasText: 'fan rattles' });
    await chatPage.allowButton(kettle).click();
    await expect(kettle.getByText('Approved', { exact: true })).toBeVisible();
    await chatPage.denyButton(fan).click();
    await expect(fan.getByText('Denied', { exact: true })).toBeVisible();
    await chatPage.waitForTurnEnd();
    const ticketId = await chatPage.ticketIdIn(chatPage.tickets('kettle leaks'));
    const reply = chatPage.agentMessages.last().getByTestId('assistant-text').last();
    await expect(reply).toContainText(`Created ticket ${ticketId}: kettle leaks`);
    await expect(reply).toContainText('“fan rattles” was declined');
  });
});
