import { expect, test } from './fixtures';

test.describe('MCP tools (zh)', () => {
  test('the picker shows the notes worker with its MCP tools and what they do', async ({
    chatPage,
    page,
  }) => {
    await chatPage.goto('/');
    await chatPage.workerPicker.selectOption('notes');
    const tools = page.getByRole('list', { name: /notes/ });
    await expect(tools).toContainText('notes__delete_note');
    await expect(tools).toContainText('MCP 服务器 notes: Delete one note for good');
  });

  test('a destructive MCP tool asks first, names its server, and runs once allowed', async ({ chatPage }) => {
    await chatPage.goto('/');
    await chatPage.send('/tool notes__delete_note {"id":"n2"}');

    const card = chatPage.toolCards('notes__delete_note').last();
    await expect(card.getByText('需要你的批准')).toBeVisible();
    await expect(card.getByTestId('mcp-server')).toHaveText('MCP 服务器 notes');
    await expect(card).toContainText('"id": "n2"');

    await chatPage.allowButton(card).click();
    await expect(card.getByText('已允许', { exact: true })).toBeVisible();
    await expect(card).toContainText('Deleted note n2: Call the plumber about the kitchen tap');
    await chatPage.waitForTurnEnd();
    await expect(chatPage.agentMessages.last()).toContainText('Deleted note n2');
  });

  test('a read-only MCP tool folds to one line with a generic result line', async ({ chatPage }) => {
    await chatPage.goto('/');
    await chatPage.send('/tool notes__list_notes {}');
    await chatPage.waitForTurnEnd();

    const card = chatPage.toolCards('notes__list_notes').last();
    await expect(card).toHaveAttribute('data-folded', 'true');
    await expect(card.getByTestId('mcp-server')).toHaveText('MCP 服务器 notes');
    // MCP tools declare no result line of their own: the page says it in its own words.
    await expect(card.getByTestId('tool-result-line')).toHaveText('已完成，展开查看结果');
    await card.getByTestId('tool-line').click();
    await expect(card.getByTestId('tool-result')).toContainText('"text"');
  });
});
