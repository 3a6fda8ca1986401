'use server';

import { decideApproval } from '@/lib/chat/resolve-approval';
import { getOwnerId } from '@/lib/server/owner';

/**
 * The approval card's Allow / Deny. Goes through the same function as
 * `POST /api/chat/approve`; `sessionId` is the chat id.
 */
export async function approveToolCall(
  input: unknown,
): Promise<{ status: 'approved' | 'denied' } | { error: string }> {
  return (await decideApproval(input, await getOwnerId())).body;
}
