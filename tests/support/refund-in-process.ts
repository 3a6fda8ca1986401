// Opens the database given on the command line and, from the wall-clock time `startAt` (epoch
// ms) on, asks for `count` refunds of `amountMinor` on `orderId`, one after another, then prints
// how each ended (one word a line): run as a separate process, so two of them started together
// are two instances refunding the same order at once.
import { openDatabase } from '../../lib/db/open-database';
import { refundOrder } from './database-reads';

async function main([target = '', orderId = '', amountMinor = '0', count = '1', startAt = '0']: string[]) {
  const db = await openDatabase(target.startsWith('postgres') ? { url: target } : { path: target });
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())));
  try {
    for (let index = 0; index < Number(count); index += 1) {
      const attempt = await refundOrder(db, {
        orderId,
        amountMinor: Number(amountMinor),
        reason: `from process ${process.pid}`,
        userId: 'user-a',
      });
      console.log(attempt.kind);
    }
  } finally {
    await db.destroy();
  }
}

main(process.argv.slice(2)).catch((error) => {
  console.error(error);
  process.exit(1);
});
