import { expect, test } from './fixtures';

test('chats: a sent chat is listed, New chat starts empty, an old chat reopens and can be deleted', async ({
  chatPage,
  page,
}) => {
  await chatPage.goto('/');
  await chatPage.send('加一个待办：给供应商回电话');
  await chatPage.waitForTurnEnd();
  await expect(page).toHaveURL(/\/chat\/[\w-]+$/);
  const chatUrl = page.url();
  await expect(
    chatPage.todosPanel.getByRole('listitem').filter({ hasText: '给供应商回电话' }),
  ).not.toHaveCount(0);

  const chatLink = chatPage.chatsNav.getByRole('link', { name: /给供应商回电话/ });
  await expect(chatLink).toHaveCount(1);

  await chatPage.newChatButton.click();
  await expect(page).toHaveURL((url) => url.pathname.startsWith('/chat/') && url.href !== chatUrl);
  await expect(page.getByRole('heading', { name: '有什么可以帮你？' })).toBeVisible();

  await chatLink.click();
  await expect(page).toHaveURL(chatUrl);
  await expect(chatPage.userMessages).toHaveText(['加一个待办：给供应商回电话']);
  await expect(chatPage.agentMessages).toHaveCount(1);

  await chatPage.chatsNav.getByRole('button', { name: /^删除会话「.*给供应商回电话.*」$/ }).click();
  await expect(chatLink).toHaveCount(0);
  await expect(page).toHaveURL((url) => url.pathname === '/');
});
