import { expect, test } from './fixtures';

test.use({ locale: 'en-US' });

test('a standing grant made from a card runs the next matching refund without a card, asks outside it, and ends', async ({
  chatPage,
  page,
}) => {
  // Five turns and a grant that must run out: more than the default 30 s on a busy machine.
  test.setTimeout(90_000);
  await chatPage.goto('/');
  await chatPage.send('refund $20 on A1002, it arrived broken');
  const first = chatPage.toolCards('issueRefund').last();
  await expect(first.getByText('Approval needed')).toBeVisible();

  // Narrowed to at most this amount, for an hour, in this chat.
  await chatPage.openMore(first);
  await first.getByRole('button', { name: 'Allow similar calls…' }).click();
  const form = first.getByRole('form', { name: 'Allow calls like this without a card' });
  await expect(form.getByLabel('For')).toHaveValue('3600000');
  await expect(form.getByRole('checkbox', { name: 'only where amount ≤ 20' })).toBeChecked();
  // A grant bounds every number of the call: this one cannot be left out.
  await expect(form.getByRole('checkbox', { name: 'only where amount ≤ 20' })).toBeDisabled();
  await form.getByRole('button', { name: 'Allow and remember' }).click();
  await expect(first.getByText('Approved', { exact: true })).toBeVisible();
  await chatPage.waitForTurnEnd();
  const grants = page.getByRole('region', { name: 'Standing grants' });
  await expect(grants).toContainText('issueRefund where amount ≤ 20');

  // Inside the grant: no card.
  await chatPage.send('refund $15 on A1003, it arrived broken');
  await chatPage.waitForTurnEnd();
  await expect(chatPage.agentMessages.last()).toContainText(/Refunded 15\.00 USD on order A1003/);
  await expect(chatPage.toolCards('issueRefund').last().getByText('Approval needed')).toHaveCount(0);

  // Outside it: a card, which is declined.
  await chatPage.send('refund $40 on A1003, it arrived broken');
  const outside = chatPage.toolCards('issueRefund').last();
  await expect(outside.getByText('Approval needed')).toBeVisible();
  await outside.getByRole('button', { name: 'Deny', exact: true }).click();
  await chatPage.waitForTurnEnd();

  // Revoked from the header, the grant covers nothing more.
  await grants.getByRole('button', { name: 'Revoke the standing grant for issueRefund' }).click();
  await expect(grants).toHaveCount(0);

  // A grant of a few seconds (the API takes any length from one second) leaves the header on its own.
  await chatPage.send('refund $12 on A1003, it arrived broken');
  await expect(chatPage.toolCards('issueRefund').last().getByText('Approval needed')).toBeVisible();
  const decided = await page.evaluate(async () => {
    const list = (await (await fetch('/api/approvals')).json()) as {
      approvals: { approvalId: string; tool: string }[];
    };
    const approval = list.approvals.find((candidate) => candidate.tool === 'issueRefund');
    const response = await fetch('/api/chat/approve', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        approvalId: approval?.approvalId,
        approved: true,
        remember: { scope: 'chat', ttlMs: 4000, when: { amount: { lte: 12 } } },
      }),
    });
    return response.status;
  });
  expect(decided).toBe(200);
  await chatPage.waitForTurnEnd();
  await page.reload();
  await expect(grants).toContainText('issueRefund where amount ≤ 12');
  await expect(grants).toHaveCount(0, { timeout: 15_000 });
  await chatPage.send('refund $11 on A1003, it arrived broken');
  await expect(chatPage.toolCards('issueRefund').last().getByText('Approval needed')).toBeVisible();
});
