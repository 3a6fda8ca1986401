import { expect, type Page } from '@playwright/test';
import { type SmtpCapture, verificationLinkOf } from '../../tests/support/smtp-capture';

/**
 * Signs up from the sidebar; the account waits for its emailed link. Returns the step that
 * follows the link (caught by `smtp`) in the same page, which verifies the email and signs in.
 */
export async function signUpAndFollowLink(page: Page, smtp: SmtpCapture, email: string) {
  await page.getByRole('button', { name: /^(注册|Sign up)$/ }).click();
  await page.getByLabel(/^(邮箱|Email)$/).fill(email);
  await page.getByLabel(/^(密码|Password)/).fill('correct horse battery');
  await page.getByRole('button', { name: /^(注册|Sign up)$/ }).click();
  await expect(page.getByTestId('check-email')).toContainText(email);
  await expect(page.getByTestId('guest-badge')).toBeVisible();
  return async () => {
    await page.goto(verificationLinkOf(await smtp.mailTo(email.toLowerCase())));
    await expect(page.getByTestId('signed-in-as')).toContainText(email.toLowerCase());
  };
}
