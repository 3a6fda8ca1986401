import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** The axe rules broken on the page, at the impacts that stop or seriously hinder someone. */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      nodes: violation.nodes.map((node) => node.target.join(' ')),
    }));
}

const requests = {
  zh: { locale: 'zh-CN', message: '帮我创建一个工单：无障碍检查' },
  en: { locale: 'en-US', message: 'create a ticket: accessibility check' },
} as const;

for (const [language, { locale, message }] of Object.entries(requests)) {
  test.describe(`accessibility (${language})`, () => {
    test.use({ locale });

    test('The page with a waiting approval card has no serious or critical axe violations', async ({
      chatPage,
      page,
    }) => {
      await chatPage.goto('/');
      await chatPage.send(message);
      const card = chatPage.toolCards('createTicket').last();
      await expect(chatPage.allowButton(card)).toBeVisible();
      // Scan once the side panel has loaded, so its rows are part of the page axe reads.
      await chatPage.loadedTickets(/./);
      expect(await seriousViolations(page)).toEqual([]);

      // The edit form is part of the card too: its fields need labels a screen reader reads.
      await chatPage.openMore(card);
      await card.getByRole('button', { name: /^(修改|Edit)$/ }).click();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('The approvers’ inbox with nothing waiting has no serious or critical axe violations', async ({
      chatPage,
      page,
    }) => {
      await chatPage.goto('/');
      await page.goto('/approvals');
      await expect(page.getByTestId('inbox-empty')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
