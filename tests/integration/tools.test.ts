import type { Tool } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import type { Db } from '@/lib/db';
import { createWorkerTools, toolNamesByWorker, toolRegistry, workerNames } from '@/lib/tools';
import { createAddTodoTool } from '@/lib/tools/add-todo';
import { createCreateTicketTool } from '@/lib/tools/create-ticket';
import { createGetOrderStatusTool } from '@/lib/tools/get-order-status';
import { createListTodosTool } from '@/lib/tools/list-todos';
import { createSearchKnowledgeBaseTool } from '@/lib/tools/search-knowledge-base';
import { countTickets } from '../support/database-reads';
import { databaseEngines, openTestDatabase } from '../support/test-database';

/** Runs a tool's execute the way the AI SDK does after validation. */
async function execute(tool: Tool, input: unknown): Promise<unknown> {
  const parsed = (tool.inputSchema as ZodType).parse(input);
  return await tool.execute?.(parsed as never, { toolCallId: 'call_test', messages: [], context: undefined });
}

/** The validation messages the model would read for this input. */
function validationMessages(tool: Tool, input: unknown): string[] {
  const result = (tool.inputSchema as ZodType).safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

describe.each(databaseEngines)('tools on %s', (engine) => {
  const testUser = { userId: 'user-a' };
  let db: Db;
  let close: () => Promise<void>;

  beforeEach(async () => {
    ({ db, close } = await openTestDatabase(engine));
  });

  afterEach(async () => {
    await close();
  });

  describe('createCreateTicketTool', () => {
    it('numbers tickets TK-000001, TK-000002 and so on', async () => {
      const tool = createCreateTicketTool(db, testUser);
      expect(await execute(tool, { title: 'Broken headphones' })).toEqual({
        ticketId: 'TK-000001',
        title: 'Broken headphones',
        status: 'open',
      });
      expect(await execute(tool, { title: '耳机没声音', detail: '左耳', orderId: 'a1001' })).toEqual({
        ticketId: 'TK-000002',
        title: '耳机没声音',
        status: 'open',
      });
      expect(await countTickets(db)).toBe(2);
    });

    it('never reuses a ticket number after a delete', async () => {
      const tool = createCreateTicketTool(db, testUser);
      await execute(tool, { title: 'one' });
      await execute(tool, { title: 'two' });
      await db.deleteFrom('tickets').execute();
      expect(await execute(tool, { title: 'three' })).toMatchObject({ ticketId: 'TK-000003' });
    });

    it('stores the order id normalised and the chat id it was built with', async () => {
      await execute(createCreateTicketTool(db, { ...testUser, chatId: 'chat-1' }), {
        title: 'late',
        orderId: ' a1004 ',
      });
      expect(await db.selectFrom('tickets').select(['order_id', 'chat_id']).executeTakeFirst()).toEqual({
        order_id: 'A1004',
        chat_id: 'chat-1',
      });
    });

    it('tells the model what to fix when the title is empty or too long', () => {
      const tool = createCreateTicketTool(db, testUser);
      expect(validationMessages(tool, { title: '   ' })[0]).toMatch(/title is empty: ask the user/);
      expect(validationMessages(tool, { title: 'x'.repeat(201) })[0]).toMatch(/longer than 200/);
      expect(validationMessages(tool, {})[0]).toMatch(/title is required/);
    });
  });

  describe('createGetOrderStatusTool', () => {
    it('finds a seeded order whatever the case and spacing of its number', async () => {
      expect(await execute(createGetOrderStatusTool(db), { orderId: ' a1001 ' })).toEqual({
        found: true,
        orderId: 'A1001',
        status: 'shipped',
        carrier: 'SF Express',
        eta: '2025-06-12',
        items: [{ sku: 'HP-200', name: 'Wireless headphones', quantity: 1 }],
        total: 899,
        currency: 'CNY',
      });
    });

    it('answers found: false for an unknown order', async () => {
      expect(await execute(createGetOrderStatusTool(db), { orderId: 'A9999' })).toEqual({
        found: false,
        orderId: 'A9999',
      });
    });

    it('shows the model the shape of an order number when it sends something else', () => {
      const [message] = validationMessages(createGetOrderStatusTool(db), { orderId: 'my order' });
      expect(message).toMatch(/^orderId looks like A1001/);
    });
  });

  describe('createSearchKnowledgeBaseTool', () => {
    it('finds the returns article for a Chinese question', async () => {
      const { hits } = (await execute(createSearchKnowledgeBaseTool(db), { query: '退货政策' })) as {
        hits: { id: string; title: string; snippet: string }[];
      };
      expect(hits[0]).toMatchObject({ id: 'kb-returns-zh', title: '退货政策' });
      expect(hits[0].snippet).toContain('30 天');
      expect(hits.length).toBeLessThanOrEqual(3);
    });

    it('finds the returns article in English for an English question', async () => {
      const { hits } = (await execute(createSearchKnowledgeBaseTool(db), { query: 'return policy' })) as {
        hits: { id: string }[];
      };
      expect(hits[0].id).toBe('kb-returns-en');
    });

    it('matches two-character Chinese words that a trigram index cannot', async () => {
      const result = (await execute(createSearchKnowledgeBaseTool(db), { query: '运费', limit: 1 })) as {
        hits: { id: string }[];
      };
      expect(result.hits).toEqual([expect.objectContaining({ id: 'kb-shipping-zh' })]);
    });

    it('finds articles from a whole question, not only from key words', async () => {
      const search = createSearchKnowledgeBaseTool(db);
      const first = async (query: string) =>
        ((await execute(search, { query })) as { hits: { id: string }[] }).hits[0]?.id;
      expect(await first('退货政策是什么')).toBe('kb-returns-zh');
      expect(await first('怎么退款')).toBe('kb-refunds-zh');
      expect(await first('what is your return policy')).toBe('kb-returns-en');
      expect(await first('how long does shipping take')).toBe('kb-shipping-en');
    });

    it('returns no hits for a query that matches nothing', async () => {
      expect(await execute(createSearchKnowledgeBaseTool(db), { query: 'zebra xylophone' })).toEqual({
        hits: [],
      });
    });

    it('refuses a limit outside 1..10 with a message for the model', () => {
      const tool = createSearchKnowledgeBaseTool(db);
      expect(validationMessages(tool, { query: 'refund', limit: 11 })).toEqual(['limit must be at most 10.']);
      expect(validationMessages(tool, { query: '' })[0]).toMatch(/query is empty/);
    });
  });

  describe('createAddTodoTool and createListTodosTool', () => {
    it('adds to-dos and lists them newest first', async () => {
      expect(await execute(createAddTodoTool(db, testUser), { title: ' buy milk ' })).toEqual({
        id: 1,
        title: 'buy milk',
        status: 'open',
      });
      await execute(createAddTodoTool(db, testUser), { title: '买牛奶' });
      const { todos } = (await execute(createListTodosTool(db, testUser), {})) as {
        todos: { title: string }[];
      };
      expect(todos.map((todo) => todo.title)).toEqual(['买牛奶', 'buy milk']);
    });

    it('asks for the to-do text when the title is empty', () => {
      expect(validationMessages(createAddTodoTool(db, testUser), { title: '' })[0]).toMatch(
        /title is empty: ask the user what to add/,
      );
    });
  });

  describe('createWorkerTools', () => {
    it('gives the order worker no way to refund: only the refund worker holds issueRefund', () => {
      expect(createWorkerTools('order', db, testUser)).not.toHaveProperty('issueRefund');
      expect(Object.keys(createWorkerTools('refund', db, testUser))).toContain('issueRefund');
      for (const worker of ['order', 'knowledge', 'assistant'] as const)
        expect(Object.keys(createWorkerTools(worker, db, testUser))).not.toContain('issueRefund');
    });

    it('gives each worker exactly the tools of its table', () => {
      expect(Object.keys(createWorkerTools('order', db, testUser))).toEqual(['getOrderStatus']);
      expect(Object.keys(createWorkerTools('refund', db, testUser))).toEqual(['createTicket', 'issueRefund']);
      expect(Object.keys(createWorkerTools('knowledge', db, testUser))).toEqual(['searchKnowledgeBase']);
      expect(Object.keys(createWorkerTools('assistant', db, testUser))).toEqual(['addTodo', 'listTodos']);
      for (const worker of workerNames) {
        expect(Object.keys(createWorkerTools(worker, db, testUser))).toEqual([...toolNamesByWorker[worker]]);
      }
    });

    it('rejects a worker name that is not its own property, such as toString', () => {
      expect(() => createWorkerTools('toString' as never, db, testUser)).toThrow(/Unknown worker "toString"/);
      expect(() => createWorkerTools('admin' as never, db, testUser)).toThrow(
        /expected one of order, refund, knowledge, assistant/,
      );
    });

    it('returns a new table each time, so wrapping one never changes another', () => {
      const first = createWorkerTools('assistant', db, testUser);
      const second = createWorkerTools('assistant', db, testUser);
      expect(first).not.toBe(second);
      expect(first.addTodo).not.toBe(second.addTodo);
    });
  });

  describe('toolRegistry', () => {
    it('holds all six tools, each with a description and an input schema', () => {
      const toolbox = Object.fromEntries(
        toolRegistry.map((descriptor) => [descriptor.name, descriptor.create(db, testUser)]),
      );
      expect(Object.keys(toolbox).sort()).toEqual(
        [
          'addTodo',
          'createTicket',
          'getOrderStatus',
          'issueRefund',
          'listTodos',
          'searchKnowledgeBase',
        ].sort(),
      );
      for (const tool of Object.values(toolbox)) {
        expect(tool.description?.length).toBeGreaterThan(40);
        expect(tool.inputSchema).toBeDefined();
      }
    });
  });
});
