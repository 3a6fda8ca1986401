import { expect, test } from './fixtures';

test.describe('home page', () => {
  test('renders the chat, the model and the worker picker with each worker and its tools', async ({
    chatPage,
    page,
  }) => {
    await chatPage.goto('/');
    await expect(page.getByRole('heading', { name: '有什么可以帮你？' })).toBeVisible();
    await expect(chatPage.sendButton).toBeDisabled();
    await expect(page.getByTestId('model-label')).toContainText(/\S/);

    const options = chatPage.workerPicker.getByRole('option');
    await expect(options).toHaveText([
      '自动',
      /order.*getOrderStatus/,
      /refund.*createTicket/,
      /knowledge.*searchKnowledgeBase/,
      /assistant.*addTodo, listTodos/,
    ]);

    // Pinning a worker shows its whole tool table.
    await chatPage.workerPicker.selectOption('assistant');
    const tools = page.getByRole('list', { name: '助理的工具' });
    await expect(tools.getByRole('listitem')).toHaveText(['addTodo', 'listTodos']);
  });

  test('switches language and theme, and remembers both', async ({ chatPage, page }) => {
    await chatPage.goto('/');
    await page.getByRole('combobox', { name: '语言' }).selectOption('en');
    await expect(page.getByRole('heading', { name: 'What can I do for you?' })).toBeVisible();
    await expect(chatPage.workerPicker.getByRole('option').first()).toHaveText('Auto');

    const themeToggle = page.getByRole('button', { name: 'Toggle dark mode' });
    const wasDark = (await themeToggle.getAttribute('aria-pressed')) === 'true';
    await themeToggle.click();
    await expect(themeToggle).toHaveAttribute('aria-pressed', String(!wasDark));

    await page.reload();
    await expect(page.getByRole('heading', { name: 'What can I do for you?' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Toggle dark mode' })).toHaveAttribute(
      'aria-pressed',
      String(!wasDark),
    );
  });

  test('asks for a chat’s approval rules only once the chat exists: no 404 in a new chat', async ({
    chatPage,
    page,
  }) => {
    const missing: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 404 && response.url().includes('/api/chats/')) missing.push(response.url());
    });
    await chatPage.goto('/');
    await chatPage.send('你好');
    await chatPage.waitForTurnEnd();
    await expect(page.getByText(/我可以|I can/).first()).toBeVisible();
    expect(missing).toEqual([]);
  });
});
