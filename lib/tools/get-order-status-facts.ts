import type { OrderStatus } from '@/lib/db/orders';
import { textField } from './text-field';
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
  missingArgumentQuestion: {
    zh: '请告诉我订单号（形如 A1001），我来帮你查询。',
    en: 'Which order? Please give me the order number (it looks like A1001).',
  },
});
