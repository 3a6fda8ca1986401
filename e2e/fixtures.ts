import { test as base } from '@playwright/test';
import { ChatPage } from './pages/chat';

/** Playwright's `test` with a {@link ChatPage} for the current page. */
export const test = base.extend<{ chatPage: ChatPage }>({
  chatPage: async ({ page }, use) => {
    await use(new ChatPage(page));
  },
});

export { expect } from '@playwright/test';
