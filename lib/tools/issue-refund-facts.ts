import type { Language } from '@/lib/shared/language';
import { formatAmount, replyText, textField } from './text-field';
import { defineToolFacts } from './tool-facts';

const field = (output: unknown, name: string): unknown =>
  typeof output === 'object' && output !== null ? (output as Record<string, unknown>)[name] : undefined;

/** What the product says about `issueRefund` (client-safe; the tool itself is `issue-refund.ts`). */
export const issueRefundFacts = defineToolFacts({
  name: 'issueRefund',
  workers: ['refund'],
  kind: 'write',
  // The app's own rows: trusted as a source of values for writes.
  trust: 'trusted',
  // Money leaves the shop: a person confirms every refund unless AGENT_CONFIRM_TOOLS says otherwise.
  confirmByDefault: true,
  summarize: (input, language) => {
    const orderId = textField(input, 'orderId');
    const amount = formatAmount(field(input, 'amount'), field(input, 'currency'));
    return language === 'zh' ? `订单 ${orderId} 退款 ${amount}` : `Refund ${amount} on order ${orderId}`;
  },
  summarizeResult: (output, language) => {
    const orderId = textField(output, 'orderId');
    if (field(output, 'found') === false)
      return language === 'zh' ? `未找到订单 ${orderId}` : `Order ${orderId} not found`;
    if (field(output, 'refused') === true) {
      const remaining = formatAmount(field(output, 'remaining'), field(output, 'currency'));
      return language === 'zh'
        ? `未退款：订单 ${orderId} 最多还能退 ${remaining}`
        : `Not refunded: at most ${remaining} left on order ${orderId}`;
    }
    const refundId = textField(output, 'refundId');
    const amount = formatAmount(field(output, 'amount'), field(output, 'currency'));
    return language === 'zh' ? `已退款 ${refundId}：${amount}` : `Refund ${refundId} issued: ${amount}`;
  },
  fieldLabels: {
    orderId: { en: 'Order number', zh: '订单号' },
    amount: { en: 'Amount (order currency)', zh: '金额（订单币种）' },
    reason: { en: 'Reason', zh: '退款原因' },
    currency: { en: 'Currency (optional, must be the order’s)', zh: '币种（可选，须与订单一致）' },
  },
  capability: {
    action: { zh: '为订单退款', en: 'refund money on an order' },
    example: { zh: '订单 A1002 退 80 元，收到时坏了', en: 'refund 80 on A1002, it arrived broken' },
  },
  offline: {
    intent: 'issueRefund',
    argument: {
      field: 'orderId',
      question: {
        zh: '要给哪个订单退款？请告诉我订单号（形如 A1001）。',
        en: 'Which order should I refund? Please give me the order number (it looks like A1001).',
      },
    },
    details: [
      {
        field: 'amount',
        question: {
          zh: '要退多少钱？请告诉我金额（例如 80 或 45.50）。',
          en: 'How much should I refund? Please give me the amount (e.g. 80 or 45.50).',
        },
      },
    ],
    nothingDone: { en: 'no money was refunded', zh: '没有退款' },
    // A refund is not held up for its reason: the person who approves it sees this one.
    defaults: { reason: { en: 'Refund requested in chat', zh: '用户在对话中申请退款' } },
    quote: (orderIds, language) => {
      if (language === 'zh') return orderIds === '' ? '退款' : `订单 ${orderIds} 退款`;
      return orderIds === '' ? 'a refund' : `a refund on order ${orderIds}`;
    },
    reply: refundReply,
  },
});

/** The offline model's answer after a refund call: the refund number, or why nothing was paid. */
function refundReply(output: Readonly<Record<string, unknown>>, language: Language): string {
  const orderId = replyText(output.orderId);
  const zh = language === 'zh';
  if (output.found === false) {
    return zh
      ? `没有找到订单 ${orderId}，所以没有退款。请核对订单号（形如 A1001）。`
      : `I couldn’t find order ${orderId}, so nothing was refunded. Please check the number (it looks like A1001).`;
  }
  if (output.refused === true) {
    if (output.reason === 'exceeds_remaining') {
      const remaining = formatAmount(output.remaining, output.currency);
      const total = formatAmount(output.total, output.currency);
      return zh
        ? `没有退款：订单 ${orderId} 总额 ${total}，最多还能退 ${remaining}。如果需要，可以按不超过这个金额重新申请。`
        : `Nothing was refunded: order ${orderId} totals ${total} and at most ${remaining} is left to refund. Ask again with an amount up to that if you like.`;
    }
    if (output.reason === 'currency_mismatch') {
      const currency = replyText(output.currency);
      return zh
        ? `没有退款：订单 ${orderId} 的币种是 ${currency}，请用 ${currency} 金额重新申请。`
        : `Nothing was refunded: order ${orderId} is paid in ${currency}. Please ask again with an amount in ${currency}.`;
    }
    return zh
      ? `没有退款：订单 ${orderId} 没有可退的金额记录，请联系客服。`
      : `Nothing was refunded: order ${orderId} has no amount on record to refund. Please contact support.`;
  }
  const amount = formatAmount(output.amount, output.currency);
  return zh
    ? `已为订单 ${orderId} 退款 ${amount}，退款单号 ${replyText(output.refundId)}。`
    : `Refunded ${amount} on order ${orderId}: refund ${replyText(output.refundId)}.`;
}
