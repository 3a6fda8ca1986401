'use server';

import { headers } from 'next/headers';
import { getSessionUser } from '@/lib/auth/session-user';
import { decideApproval } from '@/lib/chat/resolve-approval';

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
  const user = await getSessionUser(await headers());
  if (user === undefined) return { error: 'No session: reload the page' };
  return (await decideApproval(input, user)).body;
}
