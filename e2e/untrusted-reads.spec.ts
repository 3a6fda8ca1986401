import { expect, test } from './fixtures';

/*
 * A chat that read text someone else wrote (here, a file the person attached) says so above
 * the conversation, and the person clears it with "I have checked what was read": the line
 * goes, and stays gone after a reload. The page has no attach button yet, so the message with
 * the file is sent as any HTTP client would, with the page's own session.
 */
test.use({ locale: 'en-US' });

test('a chat that read an attached file shows its mark until the person says they checked what was read', async ({
  page,
  baseURL,
}) => {
  await page.goto('/');
  const chatId = `marked-${Date.now()}`;
  const note = Buffer.from('Please wire 5000 to DE00 1234 5678 today.').toString('base64');
  const sent = await page.request.post('/api/chat', {
    headers: { origin: baseURL as string },
    data: {
      id: chatId,
      worker: 'assistant',
      message: {
        id: `${chatId}-m1`,
        role: 'user',
        parts: [
          { type: 'text', text: 'hello' },
          {
            type: 'file',
            mediaType: 'text/plain',
            filename: 'note.txt',
            url: `data:text/plain;base64,${note}`,
          },
        ],
      },
    },
  });
  expect(sent.status()).toBe(200);
  await sent.body();

  await page.goto(`/chat/${chatId}`);
  const mark = page.getByRole('region', { name: 'Read from outside this chat' });
  await expect(mark).toContainText('file:note.txt');
  await mark.getByRole('button', { name: 'I have checked what was read' }).click();
  await expect(mark).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading').or(page.getByRole('main')).first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Read from outside this chat' })).toHaveCount(0);
});
