import { tool } from 'ai';
import { z } from 'zod';
import type { Db } from '@/lib/db/engine';
import { fromMinorUnits } from '@/lib/db/money';
import { getOrder } from '@/lib/db/orders';
import { getOrderStatusFacts } from './get-order-status-facts';
import { orderIdSchema } from './order-id-schema';
import { defineTool } from './tool-descriptor';

/** What a `getOrderStatus` call takes; its messages and descriptions are written for the model. */
const getOrderStatusInput = z.object({
  orderId: orderIdSchema.describe('The order number exactly as the user gave it, e.g. "A1001".'),
});

/** Builds `getOrderStatus`: read-only lookup of one order's status, carrier, ETA and items. */
export function createGetOrderStatusTool(db: Db) {
  return tool({
    description:
      'Look up one order by its number (e.g. A1001) and return its status, carrier, estimated delivery date, items and total. ' +
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
        total: order.totalMinor === null ? null : fromMinorUnits(order.totalMinor),
        currency: order.currency,
      };
    },
  });
}

/** `getOrderStatus`, declared once: its facts and its factory. */
export const getOrderStatusTool = defineTool(getOrderStatusFacts, {
  inputSchema: getOrderStatusInput,
  create: createGetOrderStatusTool,
});
