import { normalizeEmail } from '@toolgate/engine/client';
import { z } from 'zod';
import { maxPasswordLength, passwordProblem } from './password-policy';

/** The largest body an auth endpoint accepts: every field it takes fits in far less. */
export const maxAuthBodyBytes = 16 * 1024;

/**
 * The admin plugin's endpoints Toolgate keeps: banning (which also ends the user's
 * sessions), lifting a ban, and listing users. Impersonation, setting passwords, creating
 * or deleting users and setting roles are not reachable (roles are the operators' CLI's).
 */
export const keptAdminPaths: ReadonlySet<string> = new Set([
  '/admin/ban-user',
  '/admin/unban-user',
  '/admin/list-users',
]);

/**
 * Why an auth request's body is refused for its media type (415), or undefined. Every check
 * here reads JSON, and better-auth would also take a form or multipart body past them, so a
 * body must be `application/json`; a request with neither a body nor a content type (a bare
 * sign-out) passes.
 */
export function authMediaTypeProblem(
  method: string,
  contentType: string | null,
  bodyBytes: number,
): string | undefined {
  if (method === 'GET' || method === 'HEAD') return undefined;
  if (contentType === null && bodyBytes === 0) return undefined;
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (mediaType === 'application/json') return undefined;
  return 'Auth requests take a JSON body: send Content-Type: application/json';
}

/** The auth paths that spend the per-address sign-in budget. */
export const signInPaths: ReadonlySet<string> = new Set([
  '/sign-in/email',
  '/sign-up/email',
  '/send-verification-email',
  '/request-password-reset',
]);

/**
 * The auth paths that may mail the email in their body: each request spends that mailbox's
 * mail budget, mail or not (the mail sender counts links sent by any other path).
 */
export const mailingPaths: ReadonlySet<string> = new Set([
  '/sign-up/email',
  '/send-verification-email',
  '/request-password-reset',
]);

/** The longest profile image address a user may store. */
const maxImageLength = 2048;

const limitedFields = z
  .object({
    name: z.string().max(100, 'name: at most 100 characters').optional(),
    email: z.string().max(254, 'email: at most 254 characters').optional(),
    image: z
      .string({ error: 'image: a string (the address of a picture) or null' })
      .max(maxImageLength, `image: at most ${maxImageLength} characters`)
      .nullable()
      .optional(),
    password: z
      .string()
      .max(maxPasswordLength, `password: at most ${maxPasswordLength} characters`)
      .optional(),
    newPassword: z
      .string()
      .max(maxPasswordLength, `newPassword: at most ${maxPasswordLength} characters`)
      .optional(),
    currentPassword: z
      .string()
      .max(maxPasswordLength, `currentPassword: at most ${maxPasswordLength} characters`)
      .optional(),
  })
  .loose();

/** Paths that set a password, and the field that holds it. */
const newPasswordFieldByPath: Record<string, 'password' | 'newPassword'> = {
  '/sign-up/email': 'password',
  '/change-password': 'newPassword',
  '/reset-password': 'newPassword',
};

/**
 * Why an auth request's JSON body is refused (400), or undefined: fields too long for any
 * real use, a new password the policy refuses, an email at sign-up that is not in its
 * plain form (a full-width or decomposed address would only look like another one).
 */
export function authBodyProblem(path: string, body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const parsed = limitedFields.safeParse(body);
  if (!parsed.success) return parsed.error.issues[0]?.message ?? 'Invalid request';
  const fields = parsed.data;
  if (path === '/sign-up/email' && typeof fields.email === 'string') {
    if (normalizeEmail(fields.email) !== fields.email.trim().toLowerCase())
      return 'email: write the address in plain characters (no full-width or combining forms)';
  }
  const passwordField = Object.hasOwn(newPasswordFieldByPath, path)
    ? newPasswordFieldByPath[path]
    : undefined;
  const password = passwordField === undefined ? undefined : fields[passwordField];
  if (typeof password === 'string') {
    const problem = passwordProblem(password);
    if (problem !== undefined) return `${passwordField}: ${problem}`;
  }
  return undefined;
}
