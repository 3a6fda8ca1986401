import { expect, test } from './fixtures';

test.use({ viewport: { width: 390, height: 844 } });

test('on a phone: the Workspace and Chats drawers show the todo and the chat, and New chat closes the drawer', async ({
  chatPage,
  page,
}) => {
  await chatPage.goto('/');
  // The columns are hidden at this width; the header buttons are the only way in.
  await expect(chatPage.chatsNav).toBeHidden();
  await expect(chatPage.todosPanel).toBeHidden();

  await chatPage.send('add a todo: water the plants');
  await chatPage.waitForTurnEnd();
  await expect(page).toHaveURL(/\/chat\/[\w-]+$/);
  const chatUrl = page.url();

  await chatPage.workspaceButton.click();
  await expect(chatPage.workspaceDrawer).toBeVisible();
  await expect(chatPage.closeButton(chatPage.workspaceDrawer)).toBeFocused();
  await expect(chatPage.todosPanel.getByRole('listitem').filter({ hasText: 'water the plants' })).toHaveCount(
    1,
  );
  await page.keyboard.press('Escape');
  await expect(chatPage.workspaceDrawer).toHaveCount(0);
  await expect(chatPage.workspaceButton).toBeFocused();

  await chatPage.chatsButton.click();
  await expect(chatPage.chatsDrawer).toBeVisible();
  await expect(chatPage.chatsNav.getByRole('link', { name: /water the plants/ })).toHaveCount(1);
  await chatPage.closeButton(chatPage.chatsDrawer).click();
  await expect(chatPage.chatsDrawer).toHaveCount(0);
  await expect(chatPage.chatsButton).toBeFocused();

  await chatPage.chatsButton.click();
  await chatPage.newChatButton.click();
  await expect(chatPage.chatsDrawer).toHaveCount(0);
  await expect(page).toHaveURL((url) => url.pathname.startsWith('/chat/') && url.href !== chatUrl);
  await expect(page.getByRole('heading', { name: '有什么可以帮你？' })).toBeVisible();
  await expect(chatPage.userMessages).toHaveCount(0);
});
