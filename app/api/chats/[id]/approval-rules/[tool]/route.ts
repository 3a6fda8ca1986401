import type { NextRequest } from 'next/server';
import { revokeChatApprovalRule } from '@/lib/approvals';
import { withSession } from '@/lib/auth/with-session';
import { jsonError } from '@/lib/http/json';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';

/** Revokes "allow for this chat" for one tool: `{ revoked: true }`, or 404 when there was no such rule. */
export const DELETE = withUnavailableAs503(
  withSession(
    async (_request: NextRequest, user, { params }: { params: Promise<{ id: string; tool: string }> }) => {
      const { id, tool } = await params;
      const revoked = await revokeChatApprovalRule({ chatId: id, ownerId: user.id, toolName: tool });
      return revoked ? Response.json({ revoked: true }) : jsonError(404, 'No such rule in this chat');
    },
  ),
);
