import { afterEach, describe, expect, it } from 'vitest';
import { cancelTicket, type Db, insertTicket, openDatabase } from '@/lib/db';
import { insertTodo } from '@/lib/db/todos';
import { addTodoTool } from '@/lib/tools/add-todo';
import { createTicketTool } from '@/lib/tools/create-ticket';
import { createEmptyDatabase, databaseEngines } from '../support/test-database';

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function database(engine: (typeof databaseEngines)[number]): Promise<Db> {
  const target = await createEmptyDatabase(engine);
  cleanups.push(target.drop);
  const db = await openDatabase({ url: target.url, path: target.path });
  cleanups.push(() => db.destroy());
  return db;
}

const userA = { userId: 'user-a', chatId: 'chat-a' };
const userB = { userId: 'user-b', chatId: 'chat-b' };

function ticketPreview(db: Db, title: string, context = userA) {
  if (createTicketTool.preview === undefined) throw new Error('createTicket declares no preview');
  return createTicketTool.preview(db, createTicketTool.inputSchema.parse({ title }), context);
}

function todoPreview(db: Db, title: string, context = userA) {
  if (addTodoTool.preview === undefined) throw new Error('addTodo declares no preview');
  return addTodoTool.preview(db, addTodoTool.inputSchema.parse({ title }), context);
}

describe.each(databaseEngines)('tool previews on %s', (engine) => {
  describe('createTicket', () => {
    it('names this user’s open ticket with a similar title, in both languages', async () => {
      const db = await database(engine);
      const mine = await insertTicket(db, { title: 'Ｈｅａｄｐｈｏｎｅｓ broken', ...userA });
      await insertTicket(db, { title: 'Where is my parcel', ...userA });
      expect(await ticketPreview(db, 'my headphones are broken!')).toEqual({
        lines: [],
        warnings: [
          {
            en: `You already have an open ticket with a similar title: ${mine.ticketId} “Ｈｅａｄｐｈｏｎｅｓ broken”.`,
            zh: `你已有一个标题相近的未关闭工单：${mine.ticketId}「Ｈｅａｄｐｈｏｎｅｓ broken」。`,
          },
        ],
      });
    });

    it('never names another user’s ticket, nor a cancelled one of this user', async () => {
      const db = await database(engine);
      await insertTicket(db, { title: 'Headphones broken', ...userB });
      const cancelled = await insertTicket(db, { title: 'Headphones broken', ...userA });
      await cancelTicket(db, { ticketId: cancelled.ticketId, userId: userA.userId });
      expect(await ticketPreview(db, 'Headphones broken')).toEqual({ lines: [], warnings: [] });
    });

    it('looks at the user’s 50 most recent open tickets only', async () => {
      const db = await database(engine);
      const oldest = await insertTicket(db, { title: 'Headphones broken', ...userA });
      for (let index = 0; index < 50; index++) {
        await insertTicket(db, { title: `Parcel ${index} is late`, ...userA });
      }
      const { warnings } = await ticketPreview(db, 'Headphones broken');
      expect(JSON.stringify(warnings)).not.toContain(oldest.ticketId);
    });
  });

  describe('addTodo', () => {
    it('warns of an open to-do of this user with a similar title, never another user’s', async () => {
      const db = await database(engine);
      await insertTodo(db, { title: '买牛奶', userId: userA.userId });
      await insertTodo(db, { title: 'call the bank', userId: userB.userId });
      expect((await todoPreview(db, '买牛奶！')).warnings).toEqual([
        { en: 'Already on your open to-dos: “买牛奶”.', zh: '你的待办里已有相近的一项：「买牛奶」。' },
      ]);
      expect(await todoPreview(db, 'Call the bank')).toEqual({ lines: [], warnings: [] });
    });
  });
});
