import { test as base, expect } from '@playwright/test';
import { ChatPage } from './pages/chat';

/**
 * Playwright's `test` with a {@link ChatPage} for the current page. Every test also
 * fails on an uncaught error in the page (a hydration mismatch, a stream chunk the
 * client could not place), which a user would meet as a broken screen.
 */
export const test = base.extend<{ chatPage: ChatPage; failOnPageError: undefined }>({
  failOnPageError: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
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
