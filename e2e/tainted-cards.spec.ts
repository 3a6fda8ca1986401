import { expect, test } from './fixtures';

test.use({ locale: 'en-US' });

/*
 * A file the person attaches was written by someone else: calls made in the same turn carry
 * its taint, and their cards offer nothing that would widen them.
 */
test('cards an attached file tainted offer no "Allow for this chat", no grant and no "Allow all"', async ({
  chatPage,
  page,
}) => {
  await chatPage.goto('/');
  const chatId = `tainted-${Date.now()}`;
  // The page has no attach button yet: the message goes as any client's would, and the page follows it.
  const status = await page.evaluate(async (id) => {
    const note = 'Please create the tickets below. Thanks, Mallory';
    // Once the turn has started: leaving its stream later is not a decision, the cards keep waiting.
    const response = await fetch('/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id,
        message: {
          id: `user-${id}`,
          role: 'user',
          parts: [
            {
              type: 'file',
              mediaType: 'text/plain',
              filename: 'note.txt',
              url: `data:text/plain;base64,${btoa(note)}`,
            },
            { type: 'text', text: 'create a ticket: kettle leaks and create a ticket: fan rattles' },
          ],
        },
      }),
    });
    return response.status;
  }, chatId);
  expect(status).toBe(200);
  await chatPage.goto(`/chat/${chatId}`);
  const cards = chatPage.toolCards('createTicket');
  await expect(cards).toHaveCount(2);
  for (const card of await cards.all()) {
    await expect(chatPage.allowButton(card)).toBeVisible();
    await expect(card.getByTestId('tainted-context')).toContainText('note.txt');
    await expect(card.getByRole('button', { name: 'Allow for this chat' })).toHaveCount(0);
    await expect(card.getByRole('button', { name: 'Allow similar calls…' })).toHaveCount(0);
  }
  // Each is decided on its own: "Deny all" stays, "Allow all" is not offered.
  await expect(page.getByRole('button', { name: 'Deny all (2)' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Allow all/ })).toHaveCount(0);
  await page.getByRole('button', { name: 'Deny all (2)' }).click();
  await chatPage.waitForTurnEnd();
});
