import type { UIMessage } from 'ai';
import { POST as askRequester } from '@/app/api/approvals/[approvalId]/questions/route';
import { GET as readApproval } from '@/app/api/approvals/[approvalId]/route';
import { GET as approvalEvents } from '@/app/api/approvals/events/route';
import { POST as approve } from '@/app/api/chat/approve/route';
import { POST as chat } from '@/app/api/chat/route';
import { GET as readChat } from '@/app/api/chats/[id]/route';
import { ChatStreamReader, defaultTestCookie, getRequest, jsonRequest, userMessage } from './chat-client';

/** Sends `text` to the chat `chatId` as the person behind `cookie`; the turn's stream, as the page reads it. */
export async function sendToChat(chatId: string, text: string, cookie = defaultTestCookie()) {
  const response = await chat(
    jsonRequest('/api/chat', { id: chatId, message: userMessage(text) }, { cookie }),
  );
  if (response.status !== 200) throw new Error(`POST /api/chat answered ${response.status}`);
  return new ChatStreamReader(response);
}

/** Sends `text` and reads the turn to its approval card: the card's approval id and the rest of the stream. */
export async function askForApproval(chatId: string, text: string, cookie = defaultTestCookie()) {
  const reader = await sendToChat(chatId, text, cookie);
  const request = await reader.until('tool-approval-request');
  return { approvalId: request.approvalId as string, reader };
}

/** `POST /api/chat/approve` from the person behind `cookie`, with no chat id (approvers need not know it). */
export async function decideAs(
  approvalId: string,
  cookie: string | undefined,
  approved: boolean,
  extra: Record<string, unknown> = {},
) {
  const response = await approve(
    jsonRequest('/api/chat/approve', { approvalId, approved, ...extra }, { cookie }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** `POST /api/approvals/:id/questions` (`{ question }`, or any `body`) as the person behind `cookie`. */
export async function askRequesterAs(approvalId: string, cookie: string | undefined, body: unknown) {
  const response = await askRequester(
    jsonRequest(`/api/approvals/${approvalId}/questions`, body, { cookie }),
    { params: Promise.resolve({ approvalId }) },
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** `GET /api/approvals/:id` as the person behind `cookie`. */
export async function readApprovalAs<VIEW = Record<string, unknown>>(
  approvalId: string,
  cookie: string | undefined,
) {
  const response = await readApproval(getRequest(`/api/approvals/${approvalId}`, { cookie }), {
    params: Promise.resolve({ approvalId }),
  });
  return { status: response.status, body: (await response.json()) as VIEW };
}

/** The last saved message of a chat, as the page reloads it. */
export async function lastSavedMessage(chatId: string, cookie = defaultTestCookie()) {
  const response = await readChat(getRequest(`/api/chats/${chatId}`, { cookie }), {
    params: Promise.resolve({ id: chatId }),
  });
  return ((await response.json()) as { messages: UIMessage[] }).messages.at(-1);
}

/** Opens `GET /api/approvals/events?<query>` as the person behind `cookie`; aborting `controller` is the browser leaving. */
export async function openApprovalEvents(query: string, cookie: string | undefined) {
  const controller = new AbortController();
  const response = await approvalEvents(
    jsonRequest(`/api/approvals/events?${query}`, undefined, {
      method: 'GET',
      cookie,
      signal: controller.signal,
    }),
  );
  return { response, controller };
}
