import { type SmtpCapture, startSmtpCapture } from '../tests/support/smtp-capture';
import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat';
import { signUpAndFollowLink } from './pages/sign-up';

// The main server mails verification links here (playwright.config.ts sets the port).
let smtp: SmtpCapture;
test.beforeAll(async () => {
  smtp = await startSmtpCapture({ port: Number(process.env.E2E_SMTP_PORT) });
});
test.afterAll(async () => {
  await smtp?.stop();
});

test('an admin grants and revokes a role on the roles page; anyone else gets the 404 page', async ({
  browser,
  baseURL,
  chatPage,
  page,
}) => {
  // A verified user, in a browser of their own, who may not open the page.
  const other = await browser.newContext({ baseURL, locale: 'zh-CN' });
  try {
    const otherPage = await other.newPage();
    await new ChatPage(otherPage).goto('/');
    const followTarget = await signUpAndFollowLink(otherPage, smtp, 'agent7@example.com');
    await followTarget();
    const refused = await otherPage.goto('/admin/roles');
    expect(refused?.status()).toBe(404);
    await expect(otherPage.getByRole('link', { name: /^(角色|Roles)$/ })).toHaveCount(0);
  } finally {
    await other.close();
  }

  // The admin (listed in TOOLGATE_ADMIN_EMAILS for this server) opens it from the sidebar.
  await chatPage.goto('/');
  const followLink = await signUpAndFollowLink(page, smtp, 'roles-admin@example.com');
  await followLink();
  await page.getByRole('link', { name: /^(角色|Roles)$/ }).click();
  await expect(page).toHaveURL(/\/admin\/roles$/);
  await expect(page.getByRole('heading', { name: /^(角色|Roles)$/ })).toBeVisible();

  await page.getByLabel(/^(邮箱包含|Email contains)$/).fill('agent7');
  await page.getByRole('button', { name: /^(搜索|Search)$/ }).click();
  await expect(page.getByRole('row')).toHaveCount(2);
  const roles = page.getByRole('list', { name: /agent7@example\.com/ });

  // A role name the server would refuse is caught on the page, and nothing is granted.
  const roleField = page.getByLabel(/授予 agent7@example\.com 的角色|Role to grant to agent7@example\.com/);
  await roleField.fill('Super Visor');
  await page.getByRole('button', { name: /^(授予|Grant)$/ }).click();
  await expect(page.getByRole('alert').filter({ hasText: /小写字母|lower-case/ })).toBeVisible();
  await expect(roleField).toHaveAttribute('aria-invalid', 'true');

  await roleField.fill('supervisor');
  await page.getByRole('button', { name: /^(授予|Grant)$/ }).click();
  await expect(roles.getByText('supervisor')).toBeVisible();
  await expect(roleField).toHaveValue('');
  // Stored, not only shown: a reload lists it, and so does the API.
  await page.reload();
  await expect(roles.getByText('supervisor')).toBeVisible();
  const listed = await page.request.get('/api/admin/roles?q=agent7');
  expect((await listed.json()).users).toMatchObject([{ email: 'agent7@example.com', roles: ['supervisor'] }]);

  await page
    .getByRole('button', {
      name: /撤销 agent7@example\.com 的 supervisor 角色|Revoke supervisor from agent7@example\.com/,
    })
    .click();
  await expect(roles.getByText('supervisor')).toHaveCount(0);
  await expect(roles.getByText(/^(无|none)$/)).toBeVisible();
});
