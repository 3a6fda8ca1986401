import 'server-only';
import nodemailer from 'nodemailer';
import type { AppConfig } from '@/lib/config';

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

/** better-auth's `sendVerificationEmail` for `delivery`; a mail that cannot be sent fails the request. */
export function createVerificationSender(
  config: AppConfig,
  delivery: Exclude<VerificationDelivery, 'none'>,
): (mail: VerificationMail) => Promise<void> {
  if (delivery === 'log') {
    return async ({ user, url }) => {
      console.info(`[toolgate] Verification link for ${user.email} (no SMTP_URL set): ${url}`);
    };
  }
  const transport = nodemailer.createTransport(config.SMTP_URL);
  return async ({ user, url }) => {
    await transport.sendMail({
      from: config.SMTP_FROM,
      to: user.email,
      subject: 'Confirm your email for Toolgate',
      text: `Hello ${user.name},\n\nopen this link to confirm your email address:\n\n${url}\n\nIf you did not sign up, ignore this mail.\n`,
    });
  };
}
