import type { Db } from './engine';
import { newestOwnedRows } from './newest-owned-rows';
import type { TicketTable } from './schema';

/** A support ticket as the product shows it. */
export type Ticket = {
  /** The customer-facing number, `TK-000123`. */
  ticketId: string;
  title: string;
  detail: string | null;
  orderId: string | null;
  /** `cancelled`: its creation was undone. */
  status: 'open' | 'closed' | 'cancelled';
  chatId: string | null;
  /** The user the ticket belongs to. */
  userId: string | null;
  createdAt: string;
};

type TicketRow = { [COLUMN in keyof TicketTable]: COLUMN extends 'id' ? number : TicketTable[COLUMN] };

/** Formats a row id as a ticket number: 1 → `TK-000001`. */
export function formatTicketId(id: number): string {
  return `TK-${String(id).padStart(6, '0')}`;
}

function toTicket(row: TicketRow): Ticket {
  return {
    ticketId: formatTicketId(row.id),
    title: row.title,
    detail: row.detail,
    orderId: row.order_id,
    status: row.status,
    chatId: row.chat_id,
    userId: row.user_id,
    createdAt: row.created_at,
  };
}

/** What a new ticket needs: a title and its owner; the rest is optional. */
export type NewTicket = {
  title: string;
  /** Who the ticket belongs to; only they see it. */
  userId: string;
  detail?: string | null;
  orderId?: string | null;
  chatId?: string | null;
};

/** Inserts an open ticket and returns it with its number (from a sequence: never reused, never shared). */
export async function insertTicket(db: Db, ticket: NewTicket): Promise<Ticket> {
  const row = await db
    .insertInto('tickets')
    .values({
      title: ticket.title,
      detail: ticket.detail ?? null,
      order_id: ticket.orderId ?? null,
      chat_id: ticket.chatId ?? null,
      user_id: ticket.userId,
      status: 'open',
      created_at: new Date().toISOString(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toTicket(row);
}

/** Marks one of `userId`'s tickets `cancelled` (its creation was undone); false when there is none. */
export async function cancelTicket(
  db: Db,
  { ticketId, userId }: { ticketId: string; userId: string },
): Promise<boolean> {
  const match = /^TK-(\d+)$/.exec(ticketId);
  if (match === null) return false;
  const result = await db
    .updateTable('tickets')
    .set({ status: 'cancelled' })
    .where('id', '=', Number(match[1]))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** One user's tickets, newest first; only open ones with `status: 'open'` (those a new ticket may repeat). */
export async function listTickets(
  db: Db,
  {
    userId,
    status,
    limit = 100,
    beforeId,
  }: { userId: string; status?: 'open'; limit?: number; beforeId?: number },
): Promise<Ticket[]> {
  const rows = await newestOwnedRows(db, 'tickets', { userId, status, limit, beforeId });
  return rows.map(toTicket);
}
