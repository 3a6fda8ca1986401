import type { SqliteDatabase } from './open-database';
import { statement } from './statement';

/** A support ticket as the product shows it. */
export type Ticket = {
  /** The customer-facing number, `TK-000123`. */
  ticketId: string;
  title: string;
  detail: string | null;
  orderId: string | null;
  status: 'open' | 'closed';
  chatId: string | null;
  createdAt: string;
};

type TicketRow = {
  id: number;
  title: string;
  detail: string | null;
  order_id: string | null;
  status: 'open' | 'closed';
  chat_id: string | null;
  created_at: string;
};

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
    createdAt: row.created_at,
  };
}

/** What a new ticket needs; everything but `title` is optional. */
export type NewTicket = {
  title: string;
  detail?: string | null;
  orderId?: string | null;
  chatId?: string | null;
};

/** Inserts an open ticket and returns it with its number (from an AUTOINCREMENT id: never reused). */
export function createTicket(db: SqliteDatabase, ticket: NewTicket): Ticket {
  const row = statement<[string, string | null, string | null, string | null, string], TicketRow>(
    db,
    `INSERT INTO tickets (title, detail, order_id, chat_id, status, created_at)
       VALUES (?, ?, ?, ?, 'open', ?) RETURNING *`,
  ).get(
    ticket.title,
    ticket.detail ?? null,
    ticket.orderId ?? null,
    ticket.chatId ?? null,
    new Date().toISOString(),
  );
  if (row === undefined) throw new Error('Inserting a ticket returned no row');
  return toTicket(row);
}

/** Tickets, newest first. */
export function listTickets(db: SqliteDatabase, { limit = 100 }: { limit?: number } = {}): Ticket[] {
  return statement<[number], TicketRow>(db, 'SELECT * FROM tickets ORDER BY id DESC LIMIT ?')
    .all(limit)
    .map(toTicket);
}

/** How many tickets exist. */
export function countTickets(db: SqliteDatabase): number {
  return statement<[], { count: number }>(db, 'SELECT count(*) AS count FROM tickets').get()?.count ?? 0;
}
