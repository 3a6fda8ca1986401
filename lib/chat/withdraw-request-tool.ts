import 'server-only';
import { tool } from 'ai';
import { z } from 'zod';
import type { WaitingRequestFact } from '@/lib/ai/waiting-requests-block';
import { withdrawApproval } from '@/lib/approvals';
import type { Db } from '@/lib/db';
import { getApprovalRegistry } from '@/lib/server/stores';

/**
 * The tool a turn offers while requests of the chat wait for someone else's approval: it
 * withdraws one, when the person says so ("cancel the refund request", "算了，不退了"). It
 * can end nothing but a request of this person, in this chat, that still waits for someone
 * else: its input is one of the ids the turn listed, and the row is checked again when it runs.
 * The withdrawal is audited (`withdrawn`) and approvers see it in their inbox.
 */
export function withdrawRequestTool({
  db,
  chatId,
  ownerId,
  waiting,
}: {
  db: Db;
  chatId: string;
  ownerId: string;
  waiting: readonly WaitingRequestFact[];
}) {
  const ids = waiting.map((request) => request.approvalId) as [string, ...string[]];
  return tool({
    description:
      "Withdraws one of the user's requests that wait for someone else's approval (listed in your instructions with their approvalId). Call it only when the user asks to cancel or withdraw that request; never for anything else.",
    inputSchema: z.object({
      approvalId: z.enum(ids).describe('The approvalId of the waiting request to withdraw'),
    }),
    execute: async ({ approvalId }) => {
      const request = waiting.find((candidate) => candidate.approvalId === approvalId);
      const row = await withdrawApproval(db, getApprovalRegistry(), { approvalId, chatId, ownerId });
      if (row === undefined) {
        return {
          withdrawn: false,
          approvalId,
          message:
            'That request no longer waits (it was decided, expired or withdrawn meanwhile); nothing was changed. Tell the user.',
        };
      }
      return {
        withdrawn: true,
        approvalId,
        tool: row.toolName,
        ...(request?.summary !== undefined && { summary: request.summary }),
        message: 'The request was withdrawn: it no longer waits for approval and nothing was done.',
      };
    },
  });
}
