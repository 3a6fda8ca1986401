import type { Page, Route } from '@playwright/test';

/**
 * Routes the page's decisions (allow, deny, edit, more time: server actions, posted to the
 * page's own URL with a `Next-Action` header) through `handle`; every other request goes on.
 */
export async function routeDecisions(page: Page, handle: (route: Route) => Promise<void>): Promise<void> {
  await page.route('**/*', async (route) => {
    const request = route.request();
    if (request.method() === 'POST' && request.headers()['next-action'] !== undefined) return handle(route);
    return route.fallback();
  });
}
