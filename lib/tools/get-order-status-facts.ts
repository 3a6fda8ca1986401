import type { OrderStatus } from '@/lib/db/orders';
import type { Language } from '@/lib/shared/language';
import { formatAmount, recordsIn, replyText, textField } from './text-field';
import { defineToolFacts, type Localized } from './tool-facts';

/** Each order status in words, in each UI language. */
export const orderStatusLabels: Record<OrderStatus, Localized> = {
  processing: { zh: '备货中', en: 'being prepared' },
  shipped: { zh: '已发货', en: 'shipped' },
  in_transit: { zh: '运输中', en: 'in transit' },
  delivered: { zh: '已签收', en: 'delivered' },
  cancelled: { zh: '已取消', en: 'cancelled' },
  returned: { zh: '已退货', en: 'returned' },
};

/** What the product says about `getOrderStatus` (client-safe; the tool itself is `get-order-status.ts`). */
export const getOrderStatusFacts = defineToolFacts({
  name: 'getOrderStatus',
  workers: ['order'],
  kind: 'read',
  // The app's own rows: trusted as a source of values for writes.
  trust: 'trusted',
  summarize: (input, language) => {
    const orderId = textField(input, 'orderId');
    return language === 'zh' ? `查询订单 ${orderId}` : `Look up order ${orderId}`;
  },
  summarizeResult: (output, language) => {
    const orderId = textField(output, 'orderId');
    if ((output as { found?: unknown } | null)?.found === false)
      return language === 'zh' ? `未找到订单 ${orderId}` : `Order ${orderId} not found`;
    const code = textField(output, 'status');
    const status = Object.hasOwn(orderStatusLabels, code)
      ? orderStatusLabels[code as OrderStatus][language]
      : code;
    return language === 'zh' ? `订单 ${orderId}：${status}` : `Order ${orderId}: ${status}`;
  },
  fieldLabels: { orderId: { en: 'Order number', zh: '订单号' } },
  capability: {
    action: { zh: '查询订单状态', en: 'look up an order’s status' },
    example: { zh: '查询订单 A1001', en: 'where is my order A1001' },
  },
  offline: {
    intent: 'getOrderStatus',
    argument: {
      field: 'orderId',
      question: {
        zh: '请告诉我订单号（形如 A1001），我来帮你查询。',
        en: 'Which order? Please give me the order number (it looks like A1001).',
      },
    },
    quote: (orderIds, language) => `${language === 'zh' ? '订单 ' : 'order '}${orderIds}`.trim(),
    reply: orderReply,
    commandExample: { orderId: 'A1001' },
  },
});

/** The offline model's answer to a lookup: the status, carrier, delivery estimate and items. */
function orderReply(output: Readonly<Record<string, unknown>>, language: Language): string {
  const orderId = replyText(output.orderId);
  if (output.found === false) {
    return language === 'zh'
      ? `没有找到订单 ${orderId}。请核对订单号（形如 A1001）。`
      : `I couldn’t find order ${orderId}. Please check the number (it looks like A1001).`;
  }
  const statusCode = replyText(output.status);
  const status = Object.hasOwn(orderStatusLabels, statusCode)
    ? orderStatusLabels[statusCode as OrderStatus][language]
    : statusCode;
  const items = recordsIn(output, 'items')
    .map((item) => `${replyText(item.name)} × ${replyText(item.quantity)}`)
    .join(language === 'zh' ? '、' : ', ');
  const none = language === 'zh' ? '暂无' : 'not yet known';
  const total = typeof output.total === 'number' ? formatAmount(output.total, output.currency) : none;
  return language === 'zh'
    ? `订单 ${orderId} 当前状态：${status}。\n\n- 承运商：${replyText(output.carrier) || none}\n- 预计送达：${replyText(output.eta) || none}\n- 商品：${items || none}\n- 订单总额：${total}`
    : `Order ${orderId} is ${status}.\n\n- Carrier: ${replyText(output.carrier) || none}\n- Estimated delivery: ${replyText(output.eta) || none}\n- Items: ${items || none}\n- Total: ${total}`;
}
