import { expect, freezePageClock, screenshotForDocs, test } from './fixtures';
import type { ChatPage } from './pages/chat';

/** Sends a ticket request and returns its waiting card. */
async function waitingCard(chatPage: ChatPage, title: string) {
  await chatPage.send(`帮我创建一个工单：${title}`);
  const card = chatPage.toolCards('createTicket').last();
  await expect(card.getByText('需要你的批准')).toBeVisible();
  return card;
}

test.describe('approval card beyond allow / deny (zh)', () => {
  test('Edit, then allow: the ticket and the reply carry the edited title', async ({ chatPage }) => {
    await chatPage.goto('/');
    const card = await waitingCard(chatPage, '打印机坏了');
    await expect(card.getByTestId('tool-summary')).toContainText('创建工单「打印机坏了」');
    await chatPage.openMore(card);
    await card.getByRole('button', { name: '修改', exact: true }).click();
    const title = card.getByRole('textbox', { name: /^标题/ });
    await expect(title).toHaveValue('打印机坏了');
    await title.fill('三楼打印机卡纸');
    await card.getByRole('button', { name: '按修改后的参数允许' }).click();

    await expect(card.getByText('已允许', { exact: true })).toBeVisible();
    await expect(card.getByTestId('edited')).toHaveText('已修改');
    await chatPage.waitForTurnEnd();
    const reply = chatPage.agentMessages.last();
    await expect(reply).toContainText('三楼打印机卡纸');
    await expect(reply).toContainText('你在批准前修改了内容');
    await expect(chatPage.tickets('三楼打印机卡纸')).toHaveCount(1);
  });

  test('An edit the schema rejects shows the field error and the call keeps waiting', async ({
    chatPage,
    page,
  }) => {
    // The card's countdown is in the screenshot: a frozen clock keeps it at the same number.
    await freezePageClock(page);
    await chatPage.goto('/');
    const card = await waitingCard(chatPage, '校验修改');
    await chatPage.openMore(card);
    await card.getByRole('button', { name: '修改', exact: true }).click();
    await card.getByRole('textbox', { name: /^标题/ }).fill('   ');
    await card.getByRole('button', { name: '按修改后的参数允许' }).click();

    await expect(card.getByTestId('field-error')).toHaveText(/请检查 标题/);
    await screenshotForDocs(card, 'approval-card-edit.png');
    await expect(card.getByRole('textbox', { name: /^标题/ })).toHaveAttribute('aria-invalid', 'true');
    await expect(card.getByText('需要你的批准')).toBeVisible();
    await card.getByRole('button', { name: '取消' }).click();
    await chatPage.denyButton(card).click();
    await expect(card.getByText('已拒绝', { exact: true })).toBeVisible();
  });

  test('Deny with a note: the card keeps the note and the reply repeats it', async ({ chatPage }) => {
    await chatPage.goto('/');
    const card = await waitingCard(chatPage, '订单退款');
    await chatPage.openMore(card);
    await card.getByRole('button', { name: '拒绝并说明…' }).click();
    await card.getByRole('textbox', { name: /原因/ }).fill('请用订单 A1002');
    await chatPage.denyButton(card).click();

    await expect(card.getByText('已拒绝', { exact: true })).toBeVisible();
    await chatPage.waitForTurnEnd();
    await expect(chatPage.agentMessages.last()).toContainText('你的说明：“请用订单 A1002”');
    await expect(card.getByTestId('denial-note')).toHaveText('请用订单 A1002');
    await screenshotForDocs(card, 'approval-card-denied-with-note.png');
    // The explanation written for the model never shows in the Chinese UI.
    await expect(card).not.toContainText(/The user|Do not retry/);
  });

  test('Allow for this chat: the next call runs without a card, a new chat asks again, revoke asks again', async ({
    chatPage,
  }) => {
    await chatPage.goto('/');
    const first = await waitingCard(chatPage, '规则一');
    await chatPage.openMore(first);
    await first.getByRole('button', { name: '在本对话中始终允许' }).click();
    await expect(first.getByText('已允许', { exact: true })).toBeVisible();
    await chatPage.waitForTurnEnd();
    const rules = chatPage.page.getByRole('region', { name: '本对话中已始终允许' });
    await expect(rules).toContainText('createTicket');

    await chatPage.send('帮我创建一个工单：规则二');
    await chatPage.waitForTurnEnd();
    await expect(chatPage.agentMessages.last()).toContainText(/TK-\d+/);
    await expect(chatPage.page.getByText('需要你的批准')).toHaveCount(0);
    await expect(chatPage.tickets('规则二')).toHaveCount(1);

    await rules.getByRole('button', { name: '在本对话中不再自动允许 createTicket' }).click();
    await expect(rules).toHaveCount(0);
    const third = await waitingCard(chatPage, '规则三');
    await chatPage.denyButton(third).click();
    await chatPage.waitForTurnEnd();

    // Typing before the new chat's page has taken over would send into the old chat.
    const previous = chatPage.page.url();
    await chatPage.newChatButton.click();
    await expect(chatPage.page).not.toHaveURL(previous);
    await expect(chatPage.toolCards('createTicket')).toHaveCount(0);
    await expect(chatPage.input).toBeEditable();
    const other = await waitingCard(chatPage, '新会话');
    await chatPage.denyButton(other).click();
    await expect(other.getByText('已拒绝', { exact: true })).toBeVisible();
  });

  test('+60 s extends the countdown three times, then is disabled', async ({ chatPage }) => {
    await chatPage.goto('/');
    const card = await waitingCard(chatPage, '多给点时间');
    // Past its last minute the countdown reads whole minutes ("3 分"), rounded down.
    const seconds = () => chatPage.secondsLeft(card);
    await chatPage.openMore(card);
    const moreTime = card.getByRole('button', { name: /^\+60 秒：再给 60 秒/ });
    for (let time = 1; time <= 3; time++) {
      await moreTime.click();
      await expect.poll(seconds).toBeGreaterThanOrEqual(60 * time);
    }
    await expect(moreTime).toBeDisabled();
    await expect.poll(seconds).toBeGreaterThanOrEqual(180);
    await chatPage.denyButton(card).click();
    await expect(card.getByText('已拒绝', { exact: true })).toBeVisible();
  });

  test('While a card waits, the tab title counts it and a polite live region says so', async ({
    chatPage,
    page,
  }) => {
    await chatPage.goto('/');
    const card = await waitingCard(chatPage, '显示器闪烁');
    // Nobody is typing: focus goes to the card, so Tab reaches its buttons at once.
    await expect(card).toBeFocused();
    await expect(page).toHaveTitle(/^\(1\) /);
    const announcer = page.getByTestId('approval-announcer');
    await expect(announcer).toHaveAttribute('aria-live', 'polite');
    await expect(announcer).toHaveText('有一个工具调用等待你的批准。');
    await chatPage.denyButton(card).click();
    await expect(page).not.toHaveTitle(/^\(1\) /);
    await expect(announcer).toHaveText('');
    // After the decision, focus is back where the person writes.
    await expect(chatPage.input).toBeFocused();
  });

  test('Keyboard only: Tab from the focused card reaches Allow, and Enter allows', async ({
    chatPage,
    page,
  }) => {
    await chatPage.goto('/');
    const card = await waitingCard(chatPage, '键盘操作');
    await expect(card).toBeFocused();
    const allow = chatPage.allowButton(card);
    for (let step = 0; step < 10; step++) {
      if (await allow.evaluate((button) => button === document.activeElement)) break;
      await page.keyboard.press('Tab');
    }
    await expect(allow).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(card.getByText('已允许', { exact: true })).toBeVisible();
    await chatPage.waitForTurnEnd();
    await expect(chatPage.tickets('键盘操作')).toHaveCount(1);
  });
});
