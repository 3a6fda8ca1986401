import type { NextRequest } from 'next/server';
import { listChatApprovalRules } from '@/lib/approvals';
import { withSession } from '@/lib/auth/with-session';
import { jsonError } from '@/lib/http/json';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';

/** The tools the caller allowed for the rest of this chat: `{ rules: [{ toolName, createdAt }] }`. */
export const GET = withUnavailableAs503(
  withSession(async (_request: NextRequest, user, { params }: { params: Promise<{ id: string }> }) => {
    const { id } = await params;
    const rules = await listChatApprovalRules({ chatId: id, ownerId: user.id });
    return rules === undefined ? jsonError(404, 'Chat not found') : Response.json({ rules });
  }),
);
