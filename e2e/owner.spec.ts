import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat';

/*
 * Two browsers, two owner cookies. The approval belongs to the browser whose chat
 * asked for it: the other one cannot decide it, read the chat or delete it, and
 * its attempts leave the call pending for the owner.
 */
test('only the browser that owns a chat can decide its approval, read it or delete it', async ({
  browser,
  chatPage,
  page,
  baseURL,
}) => {
  await chatPage.goto('/');
  await chatPage.send('帮我创建一个工单：只有我能批准');
  const card = chatPage.toolCards('createTicket').last();
  await expect(chatPage.allowButton(card)).toBeVisible();
  const approvalId = await card.getAttribute('data-approval-id');
  expect(approvalId).toBeTruthy();
  const chatId = new URL(page.url()).pathname.split('/').pop() as string;

  const other = await browser.newContext({ baseURL, locale: 'zh-CN' });
  try {
    const otherPage = await other.newPage();
    const stranger = new ChatPage(otherPage);
    // A first visit gives this browser its own owner cookie.
    await stranger.goto('/');
    const cookies = await other.cookies();
    const mine = await page.context().cookies();
    const ownerOf = (list: typeof cookies) => list.find((cookie) => cookie.name === 'toolgate_owner');
    expect(ownerOf(cookies)?.httpOnly).toBe(true);
    expect(ownerOf(cookies)?.sameSite).toBe('Lax');
    expect(ownerOf(cookies)?.value).not.toBe(ownerOf(mine)?.value);

    const decision = await other.request.post('/api/chat/approve', {
      data: { approvalId, sessionId: chatId, approved: true },
    });
    expect(decision.status()).toBe(404);
    expect((await other.request.get(`/api/chats/${chatId}`)).status()).toBe(404);
    expect((await other.request.delete(`/api/chats/${chatId}`)).status()).toBe(404);
    expect(await (await other.request.get('/api/chats')).json()).toEqual([]);
  } finally {
    await other.close();
  }

  // Still pending for its owner, who can decide it.
  await expect(chatPage.allowButton(card)).toBeVisible();
  await chatPage.allowButton(card).click();
  await expect(card.getByText('已允许', { exact: true })).toBeVisible();
  await chatPage.waitForTurnEnd();
  await expect(chatPage.agentMessages.last()).toContainText(/TK-\d{6}/);
});
