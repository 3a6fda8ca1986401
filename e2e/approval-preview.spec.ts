import { expect, test } from './fixtures';

test.use({ locale: 'en-US' });

test('a ticket like an open one of mine: the card warns of it, naming its number, above the arguments', async ({
  chatPage,
  page,
}) => {
  await chatPage.goto('/');
  await chatPage.send('create a ticket: printer on floor 3 is broken');
  const first = chatPage.toolCards('createTicket').last();
  await expect(first.getByText('Approval needed')).toBeVisible();
  await first.getByRole('button', { name: 'Allow', exact: true }).click();
  await chatPage.waitForTurnEnd();
  const existing = await chatPage.ticketIdIn(chatPage.agentMessages.last());

  await chatPage.send('create a ticket: Printer on floor 3 is BROKEN!');
  const card = chatPage.toolCards('createTicket').last();
  await expect(card.getByText('Approval needed')).toBeVisible();
  const preview = card.getByRole('region', { name: 'What this would do' });
  await expect(preview).toContainText(`You already have an open ticket with a similar title: ${existing}`);
  const arguments_ = card.getByText('Arguments', { exact: true });
  const previewBox = await preview.boundingBox();
  const argumentsBox = await arguments_.boundingBox();
  expect(previewBox?.y).toBeLessThan(argumentsBox?.y ?? 0);

  // A reload shows the same card, warning included.
  await page.reload();
  const reloaded = chatPage.toolCards('createTicket').last();
  await expect(reloaded.getByRole('region', { name: 'What this would do' })).toContainText(existing);
});

test('a refund card shows the order’s total, refunded so far and what would remain, and never that it would be refused', async ({
  chatPage,
}) => {
  await chatPage.goto('/');
  await chatPage.send('refund $80 on A1002, it arrived broken');
  const card = chatPage.toolCards('issueRefund').last();
  await expect(card.getByText('Approval needed')).toBeVisible();
  const preview = card.getByRole('region', { name: 'What this would do' });
  await expect(preview).toContainText('Order total');
  await expect(preview).toContainText('Refunded so far');
  await expect(preview).toContainText('Left after this refund');
  await expect(preview).toContainText('440.00');
  await expect(preview).not.toContainText('will be refused');
});
