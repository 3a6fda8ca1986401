import { expect, test } from './fixtures';

test.use({ locale: 'en-US' });

test.describe('approval card beyond allow / deny (en)', () => {
  test('Edit, then allow: the card is titled by the tool’s summary and the ticket has the edited title', async ({
    chatPage,
  }) => {
    await chatPage.goto('/');
    await chatPage.send('create a ticket: monitor flickers');
    const card = chatPage.toolCards('createTicket').last();
    await expect(card.getByTestId('tool-summary')).toContainText('Create ticket “monitor flickers”');
    await chatPage.openMore(card);
    await card.getByRole('button', { name: 'Edit', exact: true }).click();
    await card.getByRole('textbox', { name: /^Title/ }).fill('Monitor flickers in room 12');
    await card.getByRole('button', { name: 'Allow with these arguments' }).click();
    await expect(card.getByText('Approved', { exact: true })).toBeVisible();
    await chatPage.waitForTurnEnd();
    await expect(chatPage.agentMessages.last()).toContainText('You edited the request before approving it');
    await expect(chatPage.tickets('Monitor flickers in room 12')).toHaveCount(1);
  });

  test('Deny with a note: the reply repeats the note, the tab title and live region clear', async ({
    chatPage,
    page,
  }) => {
    await chatPage.goto('/');
    await chatPage.send('create a ticket: refund order A1001');
    const card = chatPage.toolCards('createTicket').last();
    await expect(page).toHaveTitle(/^\(1\) /);
    await expect(page.getByTestId('approval-announcer')).toHaveText(
      'A tool call is waiting for your approval.',
    );
    await chatPage.openMore(card);
    await card.getByRole('button', { name: 'Deny with a note…' }).click();
    await card.getByRole('textbox', { name: /Why not/ }).fill('use order A1002 instead');
    await chatPage.denyButton(card).click();
    await expect(card.getByText('Denied', { exact: true })).toBeVisible();
    await chatPage.waitForTurnEnd();
    await expect(chatPage.agentMessages.last()).toContainText('You said: “use order A1002 instead”');
    await expect(page).not.toHaveTitle(/^\(1\) /);
  });
});
