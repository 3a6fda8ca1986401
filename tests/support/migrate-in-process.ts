// Opens (and so migrates) the database given on the command line, then creates one ticket
// and prints its number: run as a separate process by the migration tests.
import { openDatabase } from '../../lib/db/open-database';
import { insertTicket } from '../../lib/db/tickets';

async function main(target: string): Promise<void> {
  const db = await openDatabase(target.startsWith('postgres') ? { url: target } : { path: target });
  const ticket = await insertTicket(db, { title: `from process ${process.pid}`, userId: 'user-a' });
  console.log(ticket.ticketId);
  await db.destroy();
}

main(process.argv[2] ?? '').catch((error) => {
  console.error(error);
  process.exit(1);
});
