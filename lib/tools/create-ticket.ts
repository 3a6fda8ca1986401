import { tool } from 'ai';
import { z } from 'zod';
import type { Language } from '@/lib/ai/language';
import type { Db } from '@/lib/db/engine';
import { createTicket } from '@/lib/db/tickets';
import type { FieldLabels } from './field-labels';
import { orderIdSchema } from './order-id-schema';
import { textField } from './text-field';
import type { ToolContext } from './tool-context';

/** One line saying what a `createTicket` call will do, for the card title. */
export function summarizeCreateTicket(input: unknown, language: Language): string {
  const title = textField(input, 'title');
  return language === 'zh' ? `创建工单「${title}」` : `Create ticket “${title}”`;
}

/** One line saying what a `createTicket` call did. */
export function summarizeCreateTicketResult(output: unknown, language: Language): string {
  const ticketId = textField(output, 'ticketId');
  return language === 'zh' ? `已创建工单 ${ticketId}` : `Ticket ${ticketId} opened`;
}

/** What a `createTicket` call takes; its messages and descriptions are written for the model. */
const createTicketInput = z.object({
  title: z
    .string({
      error: 'title is required: a short summary of the problem, e.g. "Refund for order A1001".',
    })
    .trim()
    .min(1, 'title is empty: ask the user what the ticket is about, then call again with a one-line summary.')
    .max(200, 'title is longer than 200 characters: shorten it to one line and put the rest in detail.')
    .describe('One-line summary of the problem, in the user’s words (1–200 characters).'),
  detail: z
    .string()
    .trim()
    .max(4000, 'detail is longer than 4000 characters: summarise it.')
    .optional()
    .describe('Optional longer description: what happened, what the user wants.'),
  orderId: orderIdSchema.optional().describe('Optional order number the ticket is about, e.g. "A1001".'),
});

/** The edit form's label of each `createTicket` field. */
export const createTicketFieldLabels: FieldLabels<typeof createTicketInput> = {
  title: { en: 'Title', zh: '标题' },
  detail: { en: 'Details (optional)', zh: '详细说明（可选）' },
  orderId: { en: 'Order number (optional)', zh: '订单号（可选）' },
};

/** Builds `createTicket`: a write that opens a support ticket and returns its number. */
export function createCreateTicketTool(db: Db, { userId, chatId }: ToolContext) {
  return tool({
    description:
      'Open a support ticket for a problem a person must handle (a refund request, a damaged or missing item, a complaint) and return its number, e.g. TK-000123. ' +
      'Call it only when the user asks for a ticket or clearly wants a person to act. ' +
      'Do not call it to answer questions (search the help centre instead), do not call it twice for the same problem, ' +
      'and do not call it again after the user declined it.',
    inputSchema: createTicketInput,
    execute: async ({ title, detail, orderId }) => {
      const ticket = await createTicket(db, { title, detail, orderId, chatId, userId });
      return { ticketId: ticket.ticketId, title: ticket.title, status: ticket.status };
    },
  });
}
