/*
 * This site's own origin, as the browser sees it. Kept free of `server-only` and
 * Node APIs so the proxy can import it.
 */

/** What the request handlers trust about the network in front of them. */
export type ProxyTrust = {
  /**
   * True when a reverse proxy sets `X-Forwarded-Host` / `X-Forwarded-Proto`
   * (`TOOLGATE_TRUST_PROXY=1`). Otherwise those headers are ignored: any client
   * can send them.
   */
  trustProxy: boolean;
};

/** The site a request was addressed to: `host` is `name[:port]`, `protocol` is `http:` or `https:`. */
export type SiteAddress = { protocol: 'http:' | 'https:'; host: string; origin: string };

// A proxy chain appends its hop to the list; the first value is what the client asked for.
function firstListValue(value: string | null): string | undefined {
  const first = value?.split(',')[0]?.trim();
  return first === '' ? undefined : first;
}

/**
 * The origin a browser addressed: `X-Forwarded-Proto` and `X-Forwarded-Host` when
 * the proxy is trusted, else the `Host` header over http. `null` when the request names
 * no host at all.
 */
export function siteAddressOf(request: Request, { trustProxy }: ProxyTrust): SiteAddress | null {
  const forwardedProto = trustProxy ? firstListValue(request.headers.get('x-forwarded-proto')) : undefined;
  const forwardedHost = trustProxy ? firstListValue(request.headers.get('x-forwarded-host')) : undefined;
  const rawHost = forwardedHost ?? firstListValue(request.headers.get('host'));
  if (rawHost === undefined) return null;
  // Untrusted, the scheme is http: this server speaks no TLS itself, and the one Next gives the
  // URL comes from the client's own `X-Forwarded-Proto`, which anyone can send.
  const scheme = trustProxy
    ? (forwardedProto?.toLowerCase() ?? new URL(request.url).protocol.replace(/:$/, ''))
    : 'http';
  const protocol = scheme === 'https' ? 'https:' : 'http:';
  try {
    // Parsed, so `example.com:443` over https and `example.com` compare equal, as an Origin header has it.
    const url = new URL(`${protocol}//${rawHost}`);
    return { protocol, host: url.host, origin: url.origin };
  } catch {
    return null;
  }
}

/**
 * True when the browser reached this site over TLS, also when a trusted proxy
 * terminated it (`X-Forwarded-Proto: https`): cookies set on such a response get
 * `Secure`, so they never travel over plain http.
 */
export function isSecureRequest(request: Request, trust: ProxyTrust): boolean {
  return siteAddressOf(request, trust)?.protocol === 'https:';
}

/**
 * `response` with `Secure` added to every cookie it sets when the browser came over TLS
 * (see `isSecureRequest`): better-auth decides Secure once, from its base URL, which
 * behind a TLS-terminating proxy says nothing about what the browser used.
 */
export function withSecureCookies(response: Response, request: Request, trust: ProxyTrust): Response {
  const cookies = response.headers.getSetCookie();
  if (cookies.length === 0 || !isSecureRequest(request, trust)) return response;
  const secured = new Response(response.body, response);
  secured.headers.delete('set-cookie');
  for (const cookie of cookies) {
    secured.headers.append('set-cookie', /;\s*secure\s*(;|$)/i.test(cookie) ? cookie : `${cookie}; Secure`);
  }
  return secured;
}
