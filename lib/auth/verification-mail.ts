import 'server-only';
import nodemailer from 'nodemailer';
import type { AppConfig } from '@/lib/config';
import { siteAddressOf } from '@/lib/http/site-origin';
import { spendMailBudget } from './mail-budget';

/** How this server gets a verification link to a person, if it can. */
export type VerificationDelivery =
  /** Mail over `SMTP_URL`. */
  | 'smtp'
  /** Development without `SMTP_URL`: the link goes to the server log. */
  | 'log'
  /** Production without `SMTP_URL`: no link can be sent. */
  | 'none';

/** Which delivery applies to `config` in this environment. */
export function verificationDeliveryOf(config: AppConfig): VerificationDelivery {
  if (config.SMTP_URL !== undefined) return 'smtp';
  return process.env.NODE_ENV === 'production' ? 'none' : 'log';
}

type VerificationMail = { user: { email: string; name: string }; url: string };

type VerificationSender = (mail: VerificationMail, request?: Request) => Promise<void>;

/**
 * better-auth's `sendVerificationEmail` for `delivery`. Every link it sends, whichever
 * endpoint asked (sign-up, a sign-in before verification, a resend), spends the mail budget
 * of the address's mailbox; past it the link is not sent. Mail needs `BETTER_AUTH_URL` (the
 * config refuses SMTP_URL without it); a link only printed to this server's log may use
 * the address the developer's browser used when that is unset.
 */
export function createVerificationSender(
  config: AppConfig,
  delivery: Exclude<VerificationDelivery, 'none'>,
): VerificationSender {
  const send = createDelivery(config, delivery);
  return async (mail, request) => {
    if (!(await spendMailBudget(mail.user.email))) {
      console.warn(`[toolgate] No verification link sent to ${mail.user.email}: its mail budget is spent`);
      return;
    }
    await send(mail, request);
  };
}

function createDelivery(
  config: AppConfig,
  delivery: Exclude<VerificationDelivery, 'none'>,
): VerificationSender {
  if (delivery === 'log') {
    return async ({ user, url }, request) => {
      const site =
        config.BETTER_AUTH_URL === undefined && request !== undefined
          ? siteAddressOf(request, { trustProxy: config.TOOLGATE_TRUST_PROXY })
          : null;
      const link = site === null ? url : site.origin + new URL(url).pathname + new URL(url).search;
      console.info(`[toolgate] Verification link for ${user.email} (no SMTP_URL set): ${link}`);
    };
  }
  const transport = nodemailer.createTransport(config.SMTP_URL);
  return async ({ user, url }) => {
    await transport.sendMail({
      from: config.SMTP_FROM,
      to: user.email,
      subject: 'Confirm your email for Toolgate',
      // Greeted by the address, never the name: whoever signs up chooses the name, and the
      // mail goes to the address's owner.
      text: `Hello ${user.email},\n\nopen this link in the browser you signed up in to confirm your email address:\n\n${url}\n\nIf you did not sign up, ignore this mail.\n`,
    });
  };
}
