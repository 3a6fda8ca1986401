import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

type Shown = { title: string; body?: string };

/**
 * Replaces the browser's Notification with one that records what would be shown, and lets
 * the test hide the tab: headless Chromium neither displays notifications nor hides a page.
 */
async function recordNotifications(page: Page) {
  await page.addInitScript(() => {
    const state = window as unknown as { shown: Shown[]; tabHidden: boolean };
    state.shown = [];
    state.tabHidden = false;
    class RecordingNotification {
      static permission: NotificationPermission = 'default';
      static async requestPermission(): Promise<NotificationPermission> {
        RecordingNotification.permission = 'granted';
        return 'granted';
      }
      constructor(title: string, options?: NotificationOptions) {
        state.shown.push({ title, body: options?.body });
      }
      close() {}
    }
    Object.defineProperty(window, 'Notification', { value: RecordingNotification, configurable: true });
    Object.defineProperty(document, 'hidden', { get: () => state.tabHidden, configurable: true });
    Object.defineProperty(document, 'visibilityState', {
      get: () => (state.tabHidden ? 'hidden' : 'visible'),
      configurable: true,
    });
  });
}

const shown = (page: Page) => page.evaluate(() => (window as unknown as { shown: Shown[] }).shown);
const hideTab = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as { tabHidden: boolean }).tabHidden = true;
  });

test.describe('desktop notification for a waiting card (zh)', () => {
  test('After opting in, a card that starts waiting in a hidden tab is notified with its summary; before, none is', async ({
    chatPage,
    context,
    page,
  }) => {
    await context.grantPermissions(['notifications']);
    await recordNotifications(page);
    await chatPage.goto('/');
    const optIn = page.getByRole('button', { name: '有调用等待批准时发桌面通知' });
    await expect(optIn).toHaveAttribute('aria-pressed', 'false');

    await hideTab(page);
    await chatPage.send('帮我创建一个工单：还没开通知');
    const first = chatPage.toolCards('createTicket').last();
    await expect(chatPage.allowButton(first)).toBeVisible();
    expect(await shown(page)).toEqual([]);
    await chatPage.denyButton(first).click();
    await chatPage.waitForTurnEnd();

    await optIn.click();
    await expect(optIn).toHaveAttribute('aria-pressed', 'true');
    await chatPage.send('帮我创建一个工单：打印机坏了');
    const second = chatPage.toolCards('createTicket').last();
    await expect(chatPage.allowButton(second)).toBeVisible();
    await expect
      .poll(() => shown(page))
      .toEqual([{ title: 'Toolgate：需要你的批准', body: '创建工单「打印机坏了」' }]);
    await chatPage.denyButton(second).click();
  });
});
