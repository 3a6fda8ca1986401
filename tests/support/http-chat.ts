import type { UIMessage } from 'ai';
import { ChatStreamReader, userMessage } from './chat-client';

/** Starts a chat turn on a running server and returns its stream reader. */
export async function postChat(
  baseUrl: string,
  body: { id: string; messages: UIMessage[]; worker?: string },
  init: { signal?: AbortSignal; cookie?: string } = {},
): Promise<ChatStreamReader> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.cookie !== undefined) headers.cookie = init.cookie;
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
  if (init.cookie !== undefined) headers.cookie = init.cookie;
  return fetch(`${baseUrl}/api/chat/approve`, { method: 'POST', headers, body: JSON.stringify(decision) });
}

/** A one-message chat body. */
export function singleMessageChat(id: string, text: string, worker?: string) {
  return { id, messages: [userMessage(text)], worker };
}
