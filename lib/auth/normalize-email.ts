/**
 * The form in which emails are compared wherever privilege depends on one: Unicode NFKC
 * (so a full-width `ａ` is an `a`), trimmed, lower-cased.
 */
export function normalizeEmail(email: string): string {
  return email.normalize('NFKC').trim().toLowerCase();
}
