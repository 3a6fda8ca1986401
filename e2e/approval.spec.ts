import { expect, freezePageClock, screenshotForDocs, test } from './fixtures';
import { routeDecisions } from './pages/decisions';

const request = '帮我创建一个工单：测试审批';

test.describe('approval card (zh)', () => {
  test('Deny: the card shows 已拒绝, the agent wraps up and no ticket is created', async ({
    chatPage,
    page,
  }) => {
    // The card's countdown is in the screenshot: a frozen clock keeps it at the same number.
    await freezePageClock(page);
    await chatPage.goto('/');
    // Other tests may already have made "测试审批" tickets: what must not change is how many there are.
    const ticketsBefore = await chatPage.loadedTickets('测试审批');
    await chatPage.send(request);

    const card = chatPage.toolCards('createTicket').last();
    await expect(card.getByText('需要你的批准')).toBeVisible();
    await expect(card).toContainText('测试审批');
    await expect(card.getByRole('timer')).toHaveText(/^\d+ 秒后自动拒绝$/);
    // While the approval waits, the request is still open: the send button is Stop.
    await expect(chatPage.stopButton).toBeVisible();

    await screenshotForDocs(card, 'approval-card.png');

    await chatPage.denyButton(card).click();
    await expect(card.getByText('已拒绝', { exact: true })).toBeVisible();
    await expect(chatPage.allowButton(card)).toHaveCount(0);
    await expect(chatPage.denyButton(card)).toHaveCount(0);

    await chatPage.waitForTurnEnd();
    const wrapUp = chatPage.agentMessages.last().getByTestId('assistant-text').last();
    // The offline model's polite wrap-up says that nothing was created.
    await expect(wrapUp).toContainText(/没有创建/);
    await expect(wrapUp).not.toContainText(/TK-\d+/);

    await expect(chatPage.tickets('测试审批')).toHaveCount(ticketsBefore);
  });

  test('Allow: the buttons wait for the decision, then 已允许 and the ticket appears in the side panel', async ({
    chatPage,
    page,
  }) => {
    // Hold the decision (the card's server action) long enough to see the card while it is sent.
    let releaseDecision = () => {};
    const decisionHeld = new Promise<void>((resolve) => {
      releaseDecision = resolve;
    });
    await routeDecisions(page, async (route) => {
      await decisionHeld;
      await route.fallback();
    });

    await chatPage.goto('/');
    await chatPage.send(request);

    const card = chatPage.toolCards('createTicket').last();
    await chatPage.allowButton(card).click();
    await expect(chatPage.allowButton(card)).toBeDisabled();
    await expect(chatPage.denyButton(card)).toBeDisabled();
    releaseDecision();
    await expect(card.getByText('已允许', { exact: true })).toBeVisible();
    await expect(chatPage.allowButton(card)).toHaveCount(0);

    const ticketId = await chatPage.ticketIdIn(card);
    await chatPage.waitForTurnEnd();
    await expect(chatPage.agentMessages.last()).toContainText(ticketId);
    await expect(chatPage.tickets(ticketId)).toHaveCount(1);
    await expect(chatPage.tickets(ticketId)).toContainText('测试审批');
    // Its ticket number is behind the closed Result disclosure, so the picture is the same in every run.
    await page.mouse.move(0, 0);
    await screenshotForDocs(card, 'approval-card-allowed.png');
  });

  test('a decision that cannot be sent says so and leaves the card decidable; sent again, it counts', async ({
    chatPage,
    page,
  }) => {
    // The first Allow never reaches the server, the second finds it unavailable; the third goes through.
    let attempts = 0;
    await routeDecisions(page, async (route) => {
      attempts += 1;
      if (attempts === 1) return route.abort('failed');
      if (attempts === 2) return route.fulfill({ status: 503, json: { error: 'unavailable' } });
      return route.fallback();
    });

    await chatPage.goto('/');
    await chatPage.send(request);
    const card = chatPage.toolCards('createTicket').last();
    for (let failed = 0; failed < 2; failed += 1) {
      await chatPage.allowButton(card).click();
      await expect(card.getByRole('alert')).toHaveText('决定未能送达。');
      await expect(chatPage.allowButton(card)).toBeEnabled();
      await expect(chatPage.denyButton(card)).toBeEnabled();
    }
    await chatPage.allowButton(card).click();
    await expect(card.getByText('已允许', { exact: true })).toBeVisible();
    const ticketId = await chatPage.ticketIdIn(card);
    await chatPage.waitForTurnEnd();
    await expect(chatPage.tickets(ticketId)).toHaveCount(1);
    expect(attempts).toBe(3);
  });

  test('the same request again in the same chat asks again and returns the same ticket', async ({
    chatPage,
  }) => {
    await chatPage.goto('/');
    await chatPage.send(request);
    const first = chatPage.toolCards('createTicket').nth(0);
    await chatPage.allowButton(first).click();
    const ticketId = await chatPage.ticketIdIn(first);
    await chatPage.waitForTurnEnd();

    await chatPage.send(request);
    const second = chatPage.toolCards('createTicket').nth(1);
    // Approval sits outside idempotency: the repeat is asked about again, not answered from the cache.
    await expect(chatPage.allowButton(second)).toBeVisible();
    await chatPage.allowButton(second).click();
    await expect(await chatPage.ticketIdIn(second)).toBe(ticketId);
    await chatPage.waitForTurnEnd();
    // The card says the tool did not run again; the first one does not.
    await expect(second.getByText('幂等命中', { exact: true })).toBeVisible();
    await expect(first.getByText('幂等命中', { exact: true })).toHaveCount(0);

    await expect(chatPage.tickets(ticketId)).toHaveCount(1);
  });
});
