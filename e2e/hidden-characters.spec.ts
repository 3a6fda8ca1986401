import { expect, test } from './fixtures';

test.describe('hidden characters on an approval card', () => {
  test('a bidirectional override in the input is shown as its code point, in the summary and the arguments', async ({
    chatPage,
  }) => {
    await chatPage.goto('/');
    // U+202E reverses what follows it: unrevealed, the title would read "退款 €1000".
    await chatPage.send('帮我创建一个工单：退款 \u202e0001€\u202c 给\u200b客户');
    const card = chatPage.toolCards('createTicket').last();
    await expect(card.getByText('需要你的批准')).toBeVisible();

    const summary = card.getByTestId('tool-summary');
    await expect(summary).toContainText('退款 ⟨U+202E⟩0001€⟨U+202C⟩ 给⟨U+200B⟩客户');
    await expect(card.locator('pre').first()).toContainText('⟨U+202E⟩0001€⟨U+202C⟩');
    for (const text of [await summary.textContent(), await card.locator('pre').first().textContent()]) {
      expect(text).not.toMatch(/[\u200b\u202c\u202e]/);
    }
  });
});

test.describe('hidden characters in the edit form', () => {
  test('a field whose value holds hidden characters shows them beside it, until they are gone', async ({
    chatPage,
  }) => {
    await chatPage.goto('/');
    await chatPage.send('帮我创建一个工单：退款 \u202e0001€\u202c 给\u2060客户');
    const card = chatPage.toolCards('createTicket').last();
    await expect(card.getByTestId('tool-summary')).toContainText('退款 ⟨U+202E⟩0001€⟨U+202C⟩ 给⟨U+2060⟩客户');
    await chatPage.openMore(card);
    await card.getByRole('button', { name: '修改', exact: true }).click();

    const title = card.getByRole('textbox', { name: /^标题/ });
    const revealed = card.getByTestId('field-revealed');
    await expect(revealed).toContainText('退款 ⟨U+202E⟩0001€⟨U+202C⟩ 给⟨U+2060⟩客户');
    await expect(title).toHaveAccessibleDescription(/⟨U\+202E⟩0001€⟨U\+202C⟩/);
    await title.fill('退款 1000€ 给客户');
    await expect(revealed).toHaveCount(0);
  });
});

test.describe('hidden characters in a denial note', () => {
  test('a note with a bidirectional override shows its code points on the card and in the reply', async ({
    chatPage,
  }) => {
    await chatPage.goto('/');
    await chatPage.send('帮我创建一个工单：打印机坏了');
    const card = chatPage.toolCards('createTicket').last();
    await expect(card.getByText('需要你的批准')).toBeVisible();
    await chatPage.openMore(card);
    await card.getByRole('button', { name: '拒绝并说明…' }).click();
    await card.getByRole('textbox', { name: /原因/ }).fill('不用\u202e了\u200b谢谢');
    await chatPage.denyButton(card).click();
    await chatPage.waitForTurnEnd();
    await expect(card.getByTestId('denial-note')).toHaveText('不用⟨U+202E⟩了⟨U+200B⟩谢谢');
    await expect(chatPage.agentMessages.last()).toContainText('你的说明：“不用⟨U+202E⟩了⟨U+200B⟩谢谢”');
    expect(await card.getByTestId('denial-note').textContent()).not.toMatch(/[\u200b\u202e]/);
  });
});
