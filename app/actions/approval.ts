'use server';

import { approveRequestSchema } from '@/app/api/chat/approve/schema';
import { resolveApproval } from '@/lib/chat/resolve-approval';
import { describeZodError } from '@/lib/http/json';
import { getOwnerId } from '@/lib/server/owner';

/**
 * The approval card's Allow / Deny. Goes through the same registry call as
 * `POST /api/chat/approve`; `sessionId` is the chat id.
 */
export async function approveToolCall(
  input: unknown,
): Promise<{ status: 'approved' | 'denied' } | { error: string }> {
  const parsed = approveRequestSchema.safeParse(input);
  if (!parsed.success) return { error: describeZodError(parsed.error) };
  const result = await resolveApproval({ ...parsed.data, ownerId: await getOwnerId() });
  return result ?? { error: 'No pending approval with that id in this session' };
}
