import { expect, test } from './fixtures';

test.describe('read-only calls fold to one line (zh)', () => {
  test('An order lookup shows its summary and result in one line; opening it shows the JSON', async ({
    chatPage,
  }) => {
    await chatPage.goto('/');
    await chatPage.send('查询订单 A1001');
    await chatPage.waitForTurnEnd();

    const card = chatPage.toolCards('getOrderStatus').last();
    await expect(card).toHaveAttribute('data-folded', 'true');
    await expect(card.getByTestId('tool-summary')).toHaveText('查询订单 A1001');
    await expect(card.getByTestId('tool-result-line')).toHaveText('订单 A1001：已发货');
    const result = card.getByTestId('tool-result');
    await expect(result).toBeHidden();

    await card.getByTestId('tool-line').click();
    await expect(result).toBeVisible();
    await expect(result).toContainText('"status": "shipped"');
    await expect(card.getByText('"orderId": "A1001"').first()).toBeVisible();
  });

  test('A write keeps its card while the listing after it folds', async ({ chatPage }) => {
    await chatPage.goto('/');
    await chatPage.send('加一个待办：折叠检查，然后列出我的待办');
    await chatPage.waitForTurnEnd();

    const added = chatPage.toolCards('addTodo').last();
    await expect(added).not.toHaveAttribute('data-folded', 'true');
    await expect(added.getByTestId('tool-state')).toHaveText('已完成');
    const listed = chatPage.toolCards('listTodos').last();
    await expect(listed.getByTestId('tool-summary')).toHaveText('列出待办');
    await expect(listed.getByTestId('tool-result-line')).toHaveText('1 条待办');
  });
});

test.describe('read-only calls fold to one line (en)', () => {
  test.use({ locale: 'en-US' });

  test('An order lookup and a help-centre search fold with English lines', async ({ chatPage }) => {
    await chatPage.goto('/');
    await chatPage.send('where is my order A1001');
    await chatPage.waitForTurnEnd();
    const order = chatPage.toolCards('getOrderStatus').last();
    await expect(order.getByTestId('tool-summary')).toHaveText('Look up order A1001');
    await expect(order.getByTestId('tool-result-line')).toHaveText('Order A1001: shipped');
    await order.getByTestId('tool-line').click();
    await expect(order.getByTestId('tool-result')).toContainText('"carrier": "SF Express"');

    await chatPage.send('what is your return policy');
    await chatPage.waitForTurnEnd();
    const search = chatPage.toolCards('searchKnowledgeBase').last();
    await expect(search.getByTestId('tool-result-line')).toHaveText(/^(\d+ articles?|No articles) found$/);
    await expect(search.getByTestId('tool-result')).toBeHidden();
  });
});
