import { NextRequest } from 'next/server';
import { GET as authGet, POST as authPost } from '@/app/api/auth/[...all]/route';
import { cookieHeaderOf } from './server-env';

/**
 * What an auth request may carry besides its body. A `content-type` in `headers` replaces
 * the default `application/json` (a string body is then sent as written); `method` replaces
 * the default (POST with a body, GET without).
 */
export type AuthRequestOptions = { cookie?: string; headers?: Record<string, string>; method?: string };

/** A request to `/api/auth/*` as a browser on http://localhost sends it. */
export function authRequest(
  path: string,
  body?: unknown,
  { cookie, headers = {}, method }: AuthRequestOptions = {},
): NextRequest {
  const all = new Headers({ host: 'localhost', origin: 'http://localhost', ...headers });
  if (body !== undefined && !all.has('content-type')) all.set('content-type', 'application/json');
  if (cookie !== undefined && cookie !== '') all.set('cookie', cookie);
  const url = path.startsWith('http') ? path : `http://localhost/api/auth${path}`;
  return new NextRequest(url, {
    method: method ?? (body === undefined ? 'GET' : 'POST'),
    headers: all,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Sends `body` to the auth route (GET without one) and returns the response. */
export function callAuth(path: string, body?: unknown, options?: AuthRequestOptions): Promise<Response> {
  const request = authRequest(path, body, options);
  return request.method === 'GET' ? authGet(request) : authPost(request);
}

/** Signs up by email; returns the response and the cookies it set (empty when none). */
export async function signUp(
  email: string,
  password = 'a long unusual passphrase',
  options: AuthRequestOptions = {},
): Promise<{ response: Response; cookie: string }> {
  const response = await callAuth('/sign-up/email', { email, password, name: email }, options);
  return { response, cookie: cookieHeaderOf(response) };
}

/** Signs in by email; returns the response and the cookies it set. */
export async function signIn(
  email: string,
  password = 'a long unusual passphrase',
  options: AuthRequestOptions = {},
): Promise<{ response: Response; cookie: string }> {
  const response = await callAuth('/sign-in/email', { email, password }, options);
  return { response, cookie: cookieHeaderOf(response) };
}
