import 'server-only';
import { mailboxOf, normalizeEmail } from '@toolgate/engine/client';
import { getConfig } from '@/lib/config';
import { findAccountByEmail, getDb, recordAccountEvent } from '@/lib/db';
import { addressBudgetKey, clientAddressOf } from '@/lib/http/client-address';
import { jsonError, readLimitedBody } from '@/lib/http/json';
import { withSecureCookies } from '@/lib/http/site-origin';
import { refundAuthLimit, spendAuthLimit } from '@/lib/server/auth-limits';
import { checkClientLimit } from '@/lib/server/client-rate-limits';
import {
  authBodyProblem,
  authMediaTypeProblem,
  keptAdminPaths,
  mailingPaths,
  maxAuthBodyBytes,
  signInPaths,
} from './auth-request-rules';
import { getAuth } from './get-auth';
import { withMailBudgetSpentFor } from './mail-budget';
import { getSessionUser } from './session-user';
import {
  isVerificationBoundTo,
  userIdOfVerificationToken,
  verificationBindingCookie,
} from './verification-binding';
import { verificationDeliveryOf } from './verification-mail';

function parseJson(bytes: Uint8Array | null): unknown {
  if (bytes === null || bytes.byteLength === 0) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    // better-auth answers a malformed body itself.
    return undefined;
  }
}

/** `response` with one more cookie set. */
function withCookie(response: Response, cookie: string): Response {
  const copy = new Response(response.body, response);
  copy.headers.append('set-cookie', cookie);
  return copy;
}

/**
 * The account a response to an email sign-up or sign-in will mail a verification link for:
 * the new (or, for a taken email, the made-up) user of a sign-up, or the account of a
 * sign-in that had the right password but no verified email yet.
 */
async function mailedAccountOf(
  path: string,
  response: Response,
  email: unknown,
): Promise<string | undefined> {
  if (path === '/sign-up/email' && response.ok) {
    const id = ((await response.clone().json()) as { user?: { id?: unknown } }).user?.id;
    return typeof id === 'string' ? id : undefined;
  }
  if (path === '/sign-in/email' && response.status === 403 && typeof email === 'string') {
    const { code } = (await response.clone().json()) as { code?: unknown };
    if (code !== 'EMAIL_NOT_VERIFIED') return undefined;
    return (await findAccountByEmail(await getDb(), email.toLowerCase()))?.id;
  }
  return undefined;
}

/**
 * better-auth's endpoints behind Toolgate's rules: unused admin endpoints answer 404, the
 * kept ones need a verified admin and are audited; bodies are capped and checked; sign-in
 * and guest creation spend their budgets; a body must be JSON (415 otherwise); a
 * verification link works only in the browser that signed up or signed in for it; production without mail refuses email sign-up
 * unless `TOOLGATE_ALLOW_UNVERIFIED_SIGNUP=1`.
 */
export async function handleAuthRequest(request: Request): Promise<Response> {
  const config = getConfig();
  const trust = { trustProxy: config.TOOLGATE_TRUST_PROXY };
  const path = new URL(request.url).pathname.replace(/^\/api\/auth/, '').replace(/\/+$/, '');

  if (path.startsWith('/admin/') && !keptAdminPaths.has(path)) return jsonError(404, 'Not found');

  const read = await readLimitedBody(request, maxAuthBodyBytes);
  if (!read.ok) return read.response;
  const bodyBytes = read.bytes?.byteLength ?? 0;
  const mediaTypeProblem = authMediaTypeProblem(
    request.method,
    request.headers.get('content-type'),
    bodyBytes,
  );
  if (mediaTypeProblem !== undefined) return jsonError(415, mediaTypeProblem);
  const body = parseJson(read.bytes);
  const problem = authBodyProblem(path, body);
  if (problem !== undefined) return jsonError(400, problem);

  // A link opened anywhere else would verify the account for whoever chose its password,
  // and sign that browser in as it (moving a guest's chats there).
  const secret = (await (await getAuth()).$context).secret;
  if (path === '/verify-email') {
    const userId = userIdOfVerificationToken(new URL(request.url).searchParams.get('token'));
    if (userId === undefined || !isVerificationBoundTo(request.headers.get('cookie'), secret, userId)) {
      return jsonError(
        403,
        'This link works only in the browser that signed up (or signed in) for the account, within an hour: open it there, or sign in there for a fresh one',
      );
    }
  }

  if (
    path === '/sign-up/email' &&
    verificationDeliveryOf(config) === 'none' &&
    !config.TOOLGATE_ALLOW_UNVERIFIED_SIGNUP
  ) {
    return jsonError(
      403,
      'Email sign-up is closed: this server cannot send verification mail (its operator has not set SMTP_URL)',
    );
  }

  if (path === '/sign-in/anonymous') {
    const limited = await checkClientLimit(request, 'guest');
    if (limited !== undefined) return limited;
  }
  if (signInPaths.has(path)) {
    const limited = await spendAuthLimit('address', addressBudgetKey(clientAddressOf(request, trust)));
    if (limited !== undefined) return limited;
  }
  const bodyEmail =
    typeof (body as { email?: unknown } | undefined)?.email === 'string'
      ? normalizeEmail((body as { email: string }).email)
      : undefined;
  // Mail to one person is bounded however many addresses ask for it. These paths spend per
  // request, mail or not (the answer must not tell whether an account exists); the mail
  // sender spends for the rest, such as a sign-in before verification.
  const mailingEmail = bodyEmail !== undefined && mailingPaths.has(path) ? bodyEmail : undefined;
  if (mailingEmail !== undefined) {
    const limited = await spendAuthLimit('mail', mailboxOf(mailingEmail));
    if (limited !== undefined) return limited;
  }
  const email = path === '/sign-in/email' ? bodyEmail : undefined;
  if (email !== undefined) {
    const limited = await spendAuthLimit('failures', email);
    if (limited !== undefined) return limited;
  }

  let actorId: string | undefined;
  if (keptAdminPaths.has(path)) {
    const user = await getSessionUser(request.headers);
    if (user === undefined) return jsonError(401, 'Sign in first');
    if (!user.isAdmin) return jsonError(403, 'Admins only');
    actorId = user.id;
  }

  const forwarded = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: bodyBytes === 0 || request.method === 'GET' || request.method === 'HEAD' ? null : read.bytes,
  });
  const auth = await getAuth();
  let response = await withMailBudgetSpentFor(mailingEmail, () => auth.handler(forwarded));

  if (verificationDeliveryOf(config) !== 'none') {
    const mailedAccount = await mailedAccountOf(
      path,
      response,
      (body as { email?: unknown } | undefined)?.email,
    );
    if (mailedAccount !== undefined)
      response = withCookie(response, verificationBindingCookie(secret, mailedAccount));
  }

  // A sign-in that worked is no failure against the account's budget.
  if (email !== undefined && response.ok) await refundAuthLimit('failures', email);
  if (actorId !== undefined && response.ok) {
    const target = (body as { userId?: unknown } | undefined)?.userId;
    await recordAccountEvent(await getDb(), {
      actorId,
      action: `admin${path.slice('/admin'.length)}`,
      targetUserId: typeof target === 'string' ? target : null,
    });
  }
  return withSecureCookies(response, request, trust);
}
