/** Options of {@link contentSecurityPolicy}. */
export type ContentSecurityPolicyOptions = {
  /** Origins besides this site's own whose images pages may load (`TOOLGATE_ALLOWED_IMAGE_ORIGINS`). */
  allowedImageOrigins: readonly string[];
  /** `next dev` evaluates code for fast refresh, which needs `'unsafe-eval'`. */
  development: boolean;
};

/**
 * The Content-Security-Policy every page is served with. It backs up the markdown
 * renderer's image allowlist: should a foreign image slip into the page anyway, the
 * browser still refuses to fetch it, so model output cannot leak chat text through
 * an image URL. Scripts allow `'unsafe-inline'` because Next streams its payload in
 * inline scripts (nonces would make every page dynamic), and nothing may frame us.
 */
export function contentSecurityPolicy({
  allowedImageOrigins,
  development,
}: ContentSecurityPolicyOptions): string {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", "'unsafe-inline'", ...(development ? ["'unsafe-eval'"] : [])],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', ...allowedImageOrigins],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'object-src': ["'none'"],
    'frame-ancestors': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}
