import type { UIMessage } from 'ai';
import { ChatStreamReader, userMessage } from './chat-client';

let sessionCookie: string | undefined;

/**
 * Signs in a new guest on a running server (`POST /api/auth/sign-in/anonymous`) and returns
 * the `cookie` header to send back. Servers that share a database accept it alike.
 */
export async function guestCookie(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/sign-in/anonymous`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  if (!response.ok)
    throw new Error(`anonymous sign-in answered ${response.status}: ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

/** Sets the session the helpers below send when a call gives no `cookie`. */
export function setSessionCookie(cookie: string | undefined): void {
  sessionCookie = cookie;
}

/** Signs in a new guest on `baseUrl` and makes it the helpers' session; returns its cookie. */
export async function signInAsGuest(baseUrl: string): Promise<string> {
  const cookie = await guestCookie(baseUrl);
  setSessionCookie(cookie);
  return cookie;
}

/** `fetch` with the current session's cookie (or `init.cookie`). */
export function sessionFetch(url: string, init: RequestInit & { cookie?: string } = {}): Promise<Response> {
  const { cookie = sessionCookie, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (cookie !== undefined) headers.set('cookie', cookie);
  return fetch(url, { ...rest, headers });
}

/** Starts a chat turn on a running server and returns its stream reader. */
export async function postChat(
  baseUrl: string,
  body: { id: string; messages: UIMessage[]; worker?: string },
  init: { signal?: AbortSignal; cookie?: string } = {},
): Promise<ChatStreamReader> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const cookie = init.cookie ?? sessionCookie;
  if (cookie !== undefined) headers.cookie = cookie;
  const response = await fetch(`${baseUrl}/api/chat`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    signal: init.signal,
  });
  if (response.status !== 200)
    throw new Error(`POST /api/chat answered ${response.status}: ${await response.text()}`);
  return new ChatStreamReader(response);
}

/** Sends a decision to `/api/chat/approve` on a running server. */
export async function postDecision(
  baseUrl: string,
  decision: { approvalId: string; sessionId: string; approved: boolean },
  init: { cookie?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const cookie = init.cookie ?? sessionCookie;
  if (cookie !== undefined) headers.cookie = cookie;
  return fetch(`${baseUrl}/api/chat/approve`, { method: 'POST', headers, body: JSON.stringify(decision) });
}

/** A one-message chat body. */
export function singleMessageChat(id: string, text: string, worker?: string) {
  return { id, messages: [userMessage(text)], worker };
}
