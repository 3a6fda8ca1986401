import { expect, test } from './fixtures';

test.use({ locale: 'en-US' });

test('in English: "create a ticket: printer broken" asks for approval and creates the ticket', async ({
  chatPage,
  page,
}) => {
  await chatPage.goto('/');
  await expect(page.getByRole('heading', { name: 'What can I do for you?' })).toBeVisible();
  await chatPage.send('create a ticket: printer broken');

  const card = chatPage.toolCards('createTicket').last();
  await expect(card.getByText('Approval needed')).toBeVisible();
  await expect(card.getByRole('timer')).toHaveText(/^Auto-deny in \d+ s$/);
  await expect(card).toContainText('printer broken');

  await page.getByRole('button', { name: 'Allow', exact: true }).click();
  await expect(card.getByText('Approved', { exact: true })).toBeVisible();
  const ticketId = await chatPage.ticketIdIn(card);
  await chatPage.waitForTurnEnd();

  await expect(chatPage.agentMessages.last()).toContainText(ticketId);
  await expect(chatPage.agentMessages.last().getByTestId('message-metadata')).toContainText('refund');
  await expect(chatPage.tickets(ticketId)).toContainText('printer broken');
});
