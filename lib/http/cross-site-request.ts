import { type ProxyTrust, siteAddressOf } from './site-origin';

/** Methods that change state; a cross-site page may only cause these by submitting to us. */
const stateChangingMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Why a request was judged to come from another site, or `null` when it may proceed. */
export type CrossSiteVerdict = { refused: true; reason: string } | null;

/**
 * Judges whether a state-changing request was sent by a page of another site
 * (cross-site request forgery). The browser says so itself: `Sec-Fetch-Site`
 * (`cross-site`, or `same-site` for a sibling subdomain), and `Origin`, which a
 * page cannot forge. A request with neither header is not from a browser page and
 * is left to the route's own checks.
 *
 * `Origin` is compared with this site's origin when a trusted proxy states the
 * scheme, else by host alone (as Next's own server-action check does): behind a
 * TLS proxy that is not trusted, the scheme Next sees is not the browser's.
 */
export function judgeCrossSiteRequest(request: Request, trust: ProxyTrust): CrossSiteVerdict {
  if (!stateChangingMethods.has(request.method.toUpperCase())) return null;

  const fetchSite = request.headers.get('sec-fetch-site')?.toLowerCase();
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') {
    return { refused: true, reason: `Sec-Fetch-Site is ${fetchSite}` };
  }

  const origin = request.headers.get('origin');
  if (origin === null) return null;
  let sender: URL;
  try {
    // `null` (a sandboxed frame, a data: URL, a redirect across sites) does not parse: refused.
    sender = new URL(origin);
  } catch {
    return { refused: true, reason: `Origin ${origin} is opaque` };
  }
  const site = siteAddressOf(request, trust);
  if (site === null) return { refused: true, reason: 'the request names no host' };
  const sameSite = trust.trustProxy ? sender.origin === site.origin : sender.host === site.host;
  return sameSite ? null : { refused: true, reason: `Origin ${sender.origin} is not this site` };
}

/** The 403 `{ error }` a refused cross-site request gets. */
export function crossSiteRefusal(verdict: { reason: string }): Response {
  return Response.json({ error: `Cross-site request refused (${verdict.reason}).` }, { status: 403 });
}
