import { tool } from 'ai';
import { z } from 'zod';
import type { Db } from '@/lib/db/engine';
import { cancelTicket, insertTicket, listTickets } from '@/lib/db/tickets';
import { commitWrite } from './commit-write';
import { createTicketFacts } from './create-ticket-facts';
import { orderIdSchema } from './order-id-schema';
import { recentOpenItemsCompared, similarOpenItemsPreview } from './similar-title';
import type { ToolContext } from './tool-context';
import { defineTool, type ToolPreview } from './tool-descriptor';

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

/** Builds `createTicket`: a write that opens a support ticket and returns its number. */
export function createCreateTicketTool(db: Db, { userId, chatId }: ToolContext) {
  return tool({
    description:
      'Open a support ticket for a problem a person must handle (a refund request, a damaged or missing item, a complaint) and return its number, e.g. TK-000123. ' +
      'Call it only when the user asks for a ticket or clearly wants a person to act. ' +
      'Do not call it to answer questions (search the help centre instead), do not call it twice for the same problem, ' +
      'and do not call it again after the user declined it.',
    inputSchema: createTicketInput,
    // The ticket and the record of this result commit together: a repeat replays it.
    execute: ({ title, detail, orderId }, options) =>
      commitWrite(db, options, async (transaction) => {
        const ticket = await insertTicket(transaction, { title, detail, orderId, chatId, userId });
        return { ticketId: ticket.ticketId, title: ticket.title, status: ticket.status };
      }),
  });
}

/** What the card warns of: an open ticket of this user (never anyone else's) with a similar title. */
async function previewTicket(
  db: Db,
  { title }: z.output<typeof createTicketInput>,
  { userId }: ToolContext,
): Promise<ToolPreview> {
  const open = await listTickets(db, { userId, status: 'open', limit: recentOpenItemsCompared });
  return similarOpenItemsPreview(title, open, (ticket) => ({
    en: `You already have an open ticket with a similar title: ${ticket.ticketId} “${ticket.title}”.`,
    zh: `你已有一个标题相近的未关闭工单：${ticket.ticketId}「${ticket.title}」。`,
  }));
}

/** `createTicket`, declared once: its facts, its factory and its preview. */
export const createTicketTool = defineTool(createTicketFacts, {
  inputSchema: createTicketInput,
  create: createCreateTicketTool,
  preview: previewTicket,
  // Undone within the window, the ticket stays on record as `cancelled`.
  undo: async (db, output, { userId }) => {
    const { ticketId } = output as { ticketId: string };
    await cancelTicket(db, { ticketId, userId });
  },
});
