import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures';

// Words that, in the Chinese UI, could only come from a status value or from text written for the model.
const englishLeaks = [/\bopen\b/, /\bdone\b/, /\bclosed\b/, /executed/, /Do not retry/, /One-line summary/];

/** Fails when the rendered text (what a person can read, not hidden markup) shows any English leak. */
async function expectNoEnglishLeak(region: Locator) {
  for (const leak of englishLeaks) await expect(region).not.toContainText(leak, { useInnerText: true });
}

test.describe('every word localized (zh)', () => {
  test('A waiting card, its edit form, the side panel and the activity page show no English status or model text', async ({
    chatPage,
    page,
  }) => {
    await chatPage.goto('/');
    await chatPage.send('加一个待办：给供应商回电话');
    await chatPage.waitForTurnEnd();
    await expect(chatPage.todosPanel.getByRole('listitem')).toContainText('未完成');

    await chatPage.send('帮我创建一个工单：本地化检查');
    const allowed = chatPage.toolCards('createTicket').last();
    await chatPage.allowButton(allowed).click();
    await chatPage.waitForTurnEnd();
    await expect(chatPage.tickets('本地化检查')).toContainText('待处理');

    await chatPage.send('帮我创建一个工单：拒绝的工单');
    const denied = chatPage.toolCards('createTicket').last();
    await chatPage.denyButton(denied).click();
    await chatPage.waitForTurnEnd();
    await expect(denied.getByText('已拒绝', { exact: true })).toBeVisible();

    await chatPage.send('帮我创建一个工单：还在等待');
    const waiting = chatPage.toolCards('createTicket').last();
    await chatPage.openMore(waiting);
    await waiting.getByRole('button', { name: '修改', exact: true }).click();
    // The form's labels are the tool's own Chinese labels, not its English `.describe()` text.
    await expect(waiting.getByRole('textbox', { name: /^标题/ })).toHaveValue('还在等待');
    await expect(waiting.getByRole('textbox', { name: /^详细说明/ })).toBeVisible();
    await expectNoEnglishLeak(page.locator('body'));

    await waiting.getByRole('button', { name: '取消' }).click();
    await chatPage.denyButton(waiting).click();
    await chatPage.waitForTurnEnd();
    await page.goto('/activity');
    const log = page.getByRole('table');
    await expect(log).toContainText('已执行');
    await expect(log).toContainText('已拒绝');
    await expect(log.getByRole('cell', { name: '创建工单「本地化检查」' })).toBeVisible();
    await expect(log.getByRole('cell', { name: '创建工单「还在等待」' })).toBeVisible();
    await expectNoEnglishLeak(page.locator('body'));
    await expect(page.locator('body')).not.toContainText(/\bdenied\b/, { useInnerText: true });
  });
});
