import { getAuth } from '@/lib/auth/get-auth';
import { getConfig } from '@/lib/config';
import { withSecureCookies } from '@/lib/http/site-origin';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';
import { checkClientLimit } from '@/lib/server/client-rate-limits';

/** better-auth's endpoints: sign-up, sign-in (email, anonymous), sign-out, session. */
const handle = withUnavailableAs503(async (request: Request) => {
  // New guest sessions are free to make: an operator may cap them per client.
  if (new URL(request.url).pathname.endsWith('/sign-in/anonymous')) {
    const limited = await checkClientLimit(request, 'guest');
    if (limited !== undefined) return limited;
  }
  return withSecureCookies(await (await getAuth()).handler(request), request, {
    trustProxy: getConfig().TOOLGATE_TRUST_PROXY,
  });
});

export const GET = handle;
export const POST = handle;
