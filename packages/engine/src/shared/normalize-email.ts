/**
 * The form in which emails are compared wherever privilege depends on one: Unicode NFKC
 * (so a full-width `ａ` is an `a`), trimmed, lower-cased.
 */
export function normalizeEmail(email: string): string {
  return email.normalize('NFKC').trim().toLowerCase();
}

/**
 * The mailbox an address delivers to, for counting mail to one person: the normalized
 * address without a `+tag` (`Ann+x@example.com` → `ann@example.com`).
 */
export function mailboxOf(email: string): string {
  const normalized = normalizeEmail(email);
  const at = normalized.lastIndexOf('@');
  if (at <= 0) return normalized;
  const local = normalized.slice(0, at);
  const plus = local.indexOf('+');
  return plus <= 0 ? normalized : local.slice(0, plus) + normalized.slice(at);
}
