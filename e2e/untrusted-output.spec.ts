import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures';

/*
 * Model and tool text is untrusted: an image URL in it must not make the reader's
 * browser fetch another site (a prompt-injected reply would leak chat text in the
 * query string). A to-do titled with markdown is echoed back by the offline model,
 * which puts the image into a real reply.
 */

/** Another site on this machine that counts every request it gets. */
async function startForeignSite(): Promise<{ server: Server; origin: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'image/png' }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}`, hits };
}

test.use({ locale: 'en-US' });

test('an image from another site in a reply is never fetched and shows as a link naming its domain', async ({
  chatPage,
  page,
}) => {
  const foreign = await startForeignSite();
  try {
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const leak = `${foreign.origin}/pixel.png?chat=secret`;
    const host = new URL(foreign.origin).host;

    const response = await page.goto('/');
    // The browser's own backstop: images only from this site.
    expect(response?.headers()['content-security-policy']).toMatch(/img-src 'self' data: blob:(;|$)/);
    await expect(chatPage.input).toBeEditable();

    // The exact title through a `/tool` command: the todo's title is the markdown a model could be tricked into writing.
    const title = `![chart](${leak}) ![logo](/icon.svg)`;
    await chatPage.send(`/tool addTodo ${JSON.stringify({ title })}`);
    await chatPage.waitForTurnEnd();
    await chatPage.send('list my todos');
    await chatPage.waitForTurnEnd();
    const reply = chatPage.agentMessages.last();
    await expect(reply).toContainText(/Your to-dos/);

    // This site's own image is still shown and fetched: the renderer is not simply dropping images.
    await expect(reply.getByRole('img', { name: 'logo' }).first()).toBeAttached();
    await expect.poll(() => requested.some((url) => new URL(url).pathname === '/icon.svg')).toBe(true);
    const link = reply.getByRole('link', { name: `chart (${host})` }).first();
    await expect(link).toBeVisible();
    await expect(link).toHaveAttribute('href', leak);
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(page.locator(`img[src^="${foreign.origin}"]`)).toHaveCount(0);

    // Reload the saved chat too: rendering it again must not fetch the image either.
    await page.reload();
    await expect(
      chatPage.agentMessages
        .last()
        .getByRole('link', { name: `chart (${host})` })
        .first(),
    ).toBeVisible();

    expect(requested.filter((url) => url.startsWith(foreign.origin))).toEqual([]);
    expect(foreign.hits).toEqual([]);
  } finally {
    foreign.server.close();
  }
});

test('a state-changing request from another site is refused, one from this site is not', async ({
  page,
  baseURL,
}) => {
  // A first visit gives this browser its guest session; `page.request` sends its cookies.
  await page.goto('/');
  const body = { approvalId: 'no-such-approval', sessionId: 'no-such-chat', approved: true };
  const crossSite = await page.request.post('/api/chat/approve', {
    data: body,
    headers: { origin: 'https://evil.example' },
  });
  expect(crossSite.status()).toBe(403);
  expect(await crossSite.json()).toEqual({ error: expect.any(String) });

  const deleteFromElsewhere = await page.request.delete('/api/chats/some-chat', {
    headers: { 'sec-fetch-site': 'cross-site' },
  });
  expect(deleteFromElsewhere.status()).toBe(403);

  // Same origin: the route itself answers (an unknown approval is 404).
  const sameSite = await page.request.post('/api/chat/approve', {
    data: body,
    headers: { origin: baseURL as string },
  });
  expect(sameSite.status()).toBe(404);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('a failed tool call shows a localized message and a reference id, never the validation text', async ({
    chatPage,
  }) => {
    await chatPage.goto('/');
    // Longer than the 200 characters addTodo accepts: the SDK rejects the input before the tool runs.
    // (The offline model keeps its own titles within the limit, so the call is named outright.)
    await chatPage.send(`/tool addTodo ${JSON.stringify({ title: '很长'.repeat(120) })}`);
    const card = chatPage.toolCards('addTodo').last();
    await expect(card).toHaveAttribute('data-state', 'output-error');
    await expect(card).toContainText('工具执行失败');
    await expect(card.getByTestId('error-reference')).toHaveText(/^参考编号：ERR-[0-9A-Z]{6}$/);
    await expect(card).not.toContainText(/too big|expected|invalid|characters/i);
    await chatPage.waitForTurnEnd();
  });
});
