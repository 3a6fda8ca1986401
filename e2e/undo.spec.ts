import { expect, test } from './fixtures';

test.use({ locale: 'en-US' });

test.describe('undo a write (en)', () => {
  test('Undo after allowing a ticket: the panel shows it cancelled and the card says Undone, also after a reload', async ({
    chatPage,
    page,
  }) => {
    // The browser's clock is an hour fast: the countdown must come from the server's remaining time.
    await page.clock.setSystemTime(Date.now() + 60 * 60_000);
    await chatPage.goto('/');
    await chatPage.send('create a ticket: wrong order number');
    const card = chatPage.toolCards('createTicket').last();
    await chatPage.allowButton(card).click();
    await chatPage.waitForTurnEnd();
    const ticketId = await chatPage.ticketIdIn(chatPage.agentMessages.last());
    await expect(chatPage.tickets(ticketId)).toContainText('Open');

    // The button counts down the window the server sent (30 s by default), whatever the clock says.
    const undo = card.getByRole('button', { name: /^Undo this call \(\d+ seconds left\)$/ });
    await expect(undo).toBeVisible();
    const seconds = Number(/\d+/.exec((await undo.getAttribute('aria-label')) ?? '')?.[0]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(30);
    await undo.click();

    await expect(card.getByTestId('undone')).toContainText('Undone');
    await expect(undo).toHaveCount(0);
    await expect(chatPage.tickets(ticketId)).toContainText('Cancelled');

    // The saved tool part says so: a reload shows it undone, with no button.
    await chatPage.page.reload();
    const saved = chatPage.toolCards('createTicket').last();
    await expect(saved.getByTestId('undone')).toContainText('Undone');
    await expect(saved.getByRole('button', { name: /^Undo/ })).toHaveCount(0);
    await expect(chatPage.tickets(ticketId)).toContainText('Cancelled');
  });
});
