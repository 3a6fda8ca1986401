import { tool } from 'ai';
import { z } from 'zod';
import type { Language } from '@/lib/ai/language';
import type { Db } from '@/lib/db/engine';
import { getOrder, type OrderStatus } from '@/lib/db/orders';
import type { FieldLabels } from './field-labels';
import { orderIdSchema } from './order-id-schema';
import { textField } from './text-field';

/** One line saying what a `getOrderStatus` call will do, for the card title. */
export function summarizeGetOrderStatus(input: unknown, language: Language): string {
  const orderId = textField(input, 'orderId');
  return language === 'zh' ? `查询订单 ${orderId}` : `Look up order ${orderId}`;
}

/** Each order status in words, in each UI language. */
export const orderStatusLabels: Record<OrderStatus, Record<Language, string>> = {
  processing: { zh: '备货中', en: 'being prepared' },
  shipped: { zh: '已发货', en: 'shipped' },
  in_transit: { zh: '运输中', en: 'in transit' },
  delivered: { zh: '已签收', en: 'delivered' },
  cancelled: { zh: '已取消', en: 'cancelled' },
  returned: { zh: '已退货', en: 'returned' },
};

/** One line saying what a `getOrderStatus` call found, for its folded part. */
export function summarizeGetOrderStatusResult(output: unknown, language: Language): string {
  const orderId = textField(output, 'orderId');
  if ((output as { found?: unknown } | null)?.found === false)
    return language === 'zh' ? `未找到订单 ${orderId}` : `Order ${orderId} not found`;
  const code = textField(output, 'status');
  const status = Object.hasOwn(orderStatusLabels, code)
    ? orderStatusLabels[code as OrderStatus][language]
    : code;
  return language === 'zh' ? `订单 ${orderId}：${status}` : `Order ${orderId}: ${status}`;
}

/** What a `getOrderStatus` call takes; its messages and descriptions are written for the model. */
const getOrderStatusInput = z.object({
  orderId: orderIdSchema.describe('The order number exactly as the user gave it, e.g. "A1001".'),
});

/** The edit form's label of each `getOrderStatus` field. */
export const getOrderStatusFieldLabels: FieldLabels<typeof getOrderStatusInput> = {
  orderId: { en: 'Order number', zh: '订单号' },
};

/** Builds `getOrderStatus`: read-only lookup of one order's status, carrier, ETA and items. */
export function createGetOrderStatusTool(db: Db) {
  return tool({
    description:
      'Look up one order by its number (e.g. A1001) and return its status, carrier, estimated delivery date and items. ' +
      'Call it when the user asks where an order is, what state it is in, or when it will arrive, and gives an order number. ' +
      'Do not call it without an order number (ask for one), for general shipping or return questions (those are help-centre topics), ' +
      'or to change, cancel or refund an order: it only reads.',
    inputSchema: getOrderStatusInput,
    execute: async ({ orderId }) => {
      const order = await getOrder(db, orderId);
      if (order === undefined) return { found: false as const, orderId };
      return {
        found: true as const,
        orderId: order.orderId,
        status: order.status,
        carrier: order.carrier,
        eta: order.eta,
        items: order.items,
      };
    },
  });
}
