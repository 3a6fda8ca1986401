import type { Db } from './engine';

/** Where an order is in its life. */
export type OrderStatus = 'processing' | 'shipped' | 'in_transit' | 'delivered' | 'cancelled' | 'returned';

/** One line of an order. */
export type OrderItem = { sku: string; name: string; quantity: number };

/** An order with its shipping state. */
export type Order = {
  orderId: string;
  status: OrderStatus;
  carrier: string | null;
  /** Estimated delivery date (YYYY-MM-DD), when known. */
  eta: string | null;
  items: OrderItem[];
  placedAt: string;
  /** What the order cost, in minor units of `currency` (cents, fen); null when it was entered without one. */
  totalMinor: number | null;
  /** ISO 4217 code, e.g. `CNY`; null with `totalMinor`. */
  currency: string | null;
};

type OrderRow = {
  id: string;
  status: OrderStatus;
  carrier: string | null;
  eta: string | null;
  items: string;
  placed_at: string;
  total_minor: number | string | null;
  currency: string | null;
};

/** The order with this id (exact, already normalised), or undefined. */
export async function getOrder(db: Db, orderId: string): Promise<Order | undefined> {
  const row = (await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst()) as
    | OrderRow
    | undefined;
  if (row === undefined) return undefined;
  return {
    orderId: row.id,
    status: row.status,
    carrier: row.carrier,
    eta: row.eta,
    items: JSON.parse(row.items) as OrderItem[],
    placedAt: row.placed_at,
    totalMinor: row.total_minor === null ? null : Number(row.total_minor),
    currency: row.currency,
  };
}
