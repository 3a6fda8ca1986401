import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { ChatPage } from './pages/chat';

/**
 * Playwright's `test` with a {@link ChatPage} for the current page. Every test also
 * fails on an uncaught error in any of its pages (a hydration mismatch, a stream chunk
 * the client could not place), which a user would meet as a broken screen.
 */
export const test = base.extend<{ chatPage: ChatPage; failOnPageError: undefined }>({
  failOnPageError: [
    async ({ context }, use) => {
      const errors: string[] = [];
      // On the context, so a tab a test opens itself (a chat reopened after a close) is watched too.
      context.on('weberror', (webError) => errors.push(webError.error().message));
      await use(undefined);
      expect(errors, 'uncaught errors in the page').toEqual([]);
    },
    { auto: true },
  ],
  chatPage: async ({ page }, use) => {
    await use(new ChatPage(page));
  },
});

export { expect };

/**
 * Stops the page's clock at one instant (timers keep running), so whatever the page
 * computes from the time — a card's countdown above all — shows the same in every run.
 * Call it before the page loads.
 */
export async function freezePageClock(page: Page): Promise<void> {
  await page.clock.setFixedTime(new Date('2026-01-05T09:00:00.000Z'));
}

/**
 * Writes a screenshot for the README to `docs/<name>`. With the page's clock frozen,
 * the fonts loaded, animations stopped and the caret hidden, the same screen gives the
 * same bytes, so a clean run leaves the working tree clean.
 */
export async function screenshotForDocs(locator: Locator, name: string): Promise<void> {
  await locator.page().evaluate(() => document.fonts.ready);
  await locator.screenshot({ path: `docs/${name}`, animations: 'disabled', caret: 'hide' });
}
