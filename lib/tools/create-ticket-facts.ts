import { replyText, textField } from './text-field';
import { defineToolFacts } from './tool-facts';

/** What the product says about `createTicket` (client-safe; the tool itself is `create-ticket.ts`). */
export const createTicketFacts = defineToolFacts({
  name: 'createTicket',
  workers: ['refund'],
  kind: 'write',
  // The app's own rows: trusted as a source of values for writes.
  trust: 'trusted',
  confirmByDefault: true,
  summarize: (input, language) => {
    const title = textField(input, 'title');
    return language === 'zh' ? `创建工单「${title}」` : `Create ticket “${title}”`;
  },
  summarizeResult: (output, language) => {
    const ticketId = textField(output, 'ticketId');
    return language === 'zh' ? `已创建工单 ${ticketId}` : `Ticket ${ticketId} opened`;
  },
  fieldLabels: {
    title: { en: 'Title', zh: '标题' },
    detail: { en: 'Details (optional)', zh: '详细说明（可选）' },
    orderId: { en: 'Order number (optional)', zh: '订单号（可选）' },
  },
  capability: {
    action: { zh: '创建客服工单', en: 'open a support ticket' },
    example: { zh: '帮我创建一个工单：耳机坏了', en: 'create a ticket: my headphones are broken' },
  },
  offline: {
    intent: 'createTicket',
    argument: {
      field: 'title',
      question: {
        zh: '要创建工单，我还需要一个标题：工单标题写什么？',
        en: 'To open a ticket I need a title: what should the ticket say?',
      },
    },
    reply: (output, language) =>
      language === 'zh'
        ? `已为你创建工单 ${replyText(output.ticketId)}：${replyText(output.title)}。客服会尽快跟进。`
        : `Created ticket ${replyText(output.ticketId)}: ${replyText(output.title)}. Our support team will follow up.`,
  },
});
