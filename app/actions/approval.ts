'use server';

import { headers } from 'next/headers';
import { getSessionUser } from '@/lib/auth/session-user';
import { carryOutDecision } from '@/lib/chat/carry-out-decision';
import { runWithClientAddress } from '@/lib/http/request-address';

/**
 * The approval card's Allow / Deny (with an edited input, "for this chat", or a reason). Goes through the same function as
 * `POST /api/chat/approve`, with the same body (`chatId`; `sessionId` is accepted as another name for it). Without a session it
 * answers like an unknown approval.
 */
export async function approveToolCall(
  input: unknown,
): Promise<
  { status: 'approved' | 'denied' | 'waiting' } | { error: string; fieldErrors?: Record<string, string[]> }
> {
  const requestHeaders = await headers();
  const user = await getSessionUser(requestHeaders);
  if (user === undefined) return { error: 'No session: reload the page' };
  return (await runWithClientAddress(requestHeaders, () => carryOutDecision(input, user))).body;
}
