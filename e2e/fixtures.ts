import { test as base, expect } from '@playwright/test';
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
