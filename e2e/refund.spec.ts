import { expect, test } from './fixtures';

test.use({ locale: 'en-US' });

test('in English: "refund $80 on A1002, it arrived broken" asks a person, then refunds and names the refund', async ({
  chatPage,
  page,
}) => {
  await chatPage.goto('/');
  await chatPage.send('refund $80 on A1002, it arrived broken');

  const card = chatPage.toolCards('issueRefund').last();
  await expect(card.getByText('Approval needed')).toBeVisible();
  await expect(card).toContainText('Refund 80.00 USD on order A1002');
  await expect(card).toContainText('it arrived broken');

  await page.getByRole('button', { name: 'Allow', exact: true }).click();
  await expect(card.getByText('Approved', { exact: true })).toBeVisible();
  await chatPage.waitForTurnEnd();

  await expect(chatPage.agentMessages.last()).toContainText(
    /Refunded 80\.00 USD on order A1002: refund RF-\d{6}\./,
  );
  await expect(chatPage.agentMessages.last().getByTestId('message-metadata')).toContainText('refund');
});
