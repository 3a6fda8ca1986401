import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Tool } from 'ai';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import {
  type Db,
  getOrder,
  getRefundBalance,
  insertRefund,
  migrate,
  migrations,
  openDatabase,
  voidRefund,
  writeTransaction,
} from '@/lib/db';
import { sampleOrders } from '@/lib/db/seed-data';
import { createWorkerTools } from '@/lib/tools';
import { createIssueRefundTool, issueRefundTool } from '@/lib/tools/issue-refund';
import { listRefunds, refundOrder } from '../support/database-reads';
import { createEmptyDatabase, databaseEngines, type EmptyDatabase } from '../support/test-database';

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function emptyDatabase(engine: (typeof databaseEngines)[number]): Promise<EmptyDatabase> {
  const target = await createEmptyDatabase(engine);
  cleanups.push(target.drop);
  return target;
}

async function connect(target: EmptyDatabase): Promise<Db> {
  const db = await openDatabase({ url: target.url, path: target.path });
  cleanups.push(() => db.destroy());
  return db;
}

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

/** The refund tool's preview (declared, so never missing here). */
function previewOf(...args: Parameters<NonNullable<typeof issueRefundTool.preview>>) {
  if (issueRefundTool.preview === undefined) throw new Error('issueRefund declares no preview');
  return issueRefundTool.preview(...args);
}

const userA = { userId: 'user-a', chatId: 'chat-a' };
const userB = { userId: 'user-b' };
const totalsStep = migrations.findIndex((migration) => migration.name === 'order totals and refunds');

describe.each(databaseEngines)('refunds on %s', (engine) => {
  describe('order totals', () => {
    it('gives every seeded order a total of at least 500, in CNY or USD, both used', async () => {
      const db = await connect(await emptyDatabase(engine));
      const orders = await Promise.all(sampleOrders.map((order) => getOrder(db, order.id)));
      for (const order of orders) {
        expect(order?.totalMinor, order?.orderId).toBeGreaterThanOrEqual(500_00);
        expect(Number.isInteger(order?.totalMinor)).toBe(true);
      }
      expect(new Set(orders.map((order) => order?.currency))).toEqual(new Set(['CNY', 'USD']));
      expect(await getOrder(db, 'A1002')).toMatchObject({ totalMinor: 520_00, currency: 'USD' });
    });

    it('fills the totals of a database made before orders had them, and keeps a deleted order deleted', async () => {
      const target = await emptyDatabase(engine);
      const before = await openDatabase({ url: target.url, path: target.path });
      await before.destroy();
      // Roll the schema back to before the step: a database of an earlier release.
      const old = await connect(target);
      await sql`DROP TABLE refunds`.execute(old);
      await sql`ALTER TABLE orders DROP COLUMN total_minor`.execute(old);
      await sql`ALTER TABLE orders DROP COLUMN currency`.execute(old);
      await old.deleteFrom('schema_migrations').where('version', '>', totalsStep).execute();
      await old.deleteFrom('orders').where('id', '=', 'A1008').execute();
      expect(await migrate(old)).toBe(migrations.length);
      expect(await getOrder(old, 'A1001')).toMatchObject({ totalMinor: 899_00, currency: 'CNY' });
      expect(await getOrder(old, 'A1008')).toBeUndefined();
      expect(
        await refundOrder(old, { orderId: 'A1001', amountMinor: 100, reason: 'r', ...userA }),
      ).toMatchObject({ kind: 'issued' });
    });

    it('can run its step again over a schema that already has it', async () => {
      const db = await connect(await emptyDatabase(engine));
      await refundOrder(db, { orderId: 'A1003', amountMinor: 1000, reason: 'kept', ...userA });
      await writeTransaction(db, (transaction) => migrations[totalsStep].up(transaction, engine));
      expect(await getRefundBalance(db, 'A1003')).toMatchObject({ refundedMinor: 1000 });
    });

    it('shows the total in an order lookup', async () => {
      const db = await connect(await emptyDatabase(engine));
      const lookup = createWorkerTools('order', db, userA).getOrderStatus;
      expect(await execute(lookup, { orderId: 'A1005' })).toMatchObject({ total: 512.5, currency: 'USD' });
    });
  });

  describe('createIssueRefundTool', () => {
    it('issues RF-000001, RF-000002 … in the order’s currency', async () => {
      const db = await connect(await emptyDatabase(engine));
      const tool = createIssueRefundTool(db, userA);
      expect(await execute(tool, { orderId: ' a1002 ', amount: 80, reason: 'arrived broken' })).toEqual({
        refundId: 'RF-000001',
        orderId: 'A1002',
        amount: 80,
        currency: 'USD',
        status: 'issued',
      });
      expect(await execute(tool, { orderId: 'A1005', amount: 45.5, reason: 'wrong size' })).toEqual({
        refundId: 'RF-000002',
        orderId: 'A1005',
        amount: 45.5,
        currency: 'USD',
        status: 'issued',
      });
      expect(await getRefundBalance(db, 'A1002')).toEqual({
        orderId: 'A1002',
        totalMinor: 520_00,
        refundedMinor: 80_00,
        remainingMinor: 440_00,
        currency: 'USD',
      });
    });

    it('adds cents exactly: 0.1 + 0.2 leaves exactly 0.3 less', async () => {
      const db = await connect(await emptyDatabase(engine));
      const tool = createIssueRefundTool(db, userA);
      await execute(tool, { orderId: 'A1001', amount: 0.1, reason: 'a' });
      await execute(tool, { orderId: 'A1001', amount: 0.2, reason: 'b' });
      expect(await getRefundBalance(db, 'A1001')).toMatchObject({
        refundedMinor: 30,
        remainingMinor: 899_00 - 30,
      });
      expect(await execute(tool, { orderId: 'A1001', amount: 898.7, reason: 'the rest' })).toMatchObject({
        status: 'issued',
      });
      expect(
        await execute(tool, { orderId: 'A1001', amount: 0.01, reason: 'one cent too many' }),
      ).toMatchObject({
        refused: true,
        remaining: 0,
      });
    });

    it('refuses more than is left, says what remains, and pays nothing', async () => {
      const db = await connect(await emptyDatabase(engine));
      const tool = createIssueRefundTool(db, userA);
      await execute(tool, { orderId: 'A1002', amount: 500, reason: 'most of it' });
      expect(await execute(tool, { orderId: 'A1002', amount: 20.01, reason: 'too much' })).toMatchObject({
        refused: true,
        reason: 'exceeds_remaining',
        orderId: 'A1002',
        requested: 20.01,
        remaining: 20,
        total: 520,
        refunded: 500,
        currency: 'USD',
        message: expect.stringMatching(/Nothing was refunded/),
      });
      expect(await listRefunds(db, { userId: 'user-a' })).toHaveLength(1);
      expect(await execute(tool, { orderId: 'A1002', amount: 20, reason: 'exactly the rest' })).toMatchObject(
        {
          status: 'issued',
        },
      );
    });

    it('answers found: false for an unknown order', async () => {
      const db = await connect(await emptyDatabase(engine));
      expect(
        await execute(createIssueRefundTool(db, userA), { orderId: 'A9999', amount: 1, reason: 'x' }),
      ).toEqual({
        found: false,
        orderId: 'A9999',
      });
    });

    it('refuses a currency that is not the order’s, and takes the order’s own', async () => {
      const db = await connect(await emptyDatabase(engine));
      const tool = createIssueRefundTool(db, userA);
      expect(
        await execute(tool, { orderId: 'A1002', amount: 80, reason: 'x', currency: 'cny' }),
      ).toMatchObject({
        refused: true,
        reason: 'currency_mismatch',
        currency: 'USD',
      });
      expect(
        await execute(tool, { orderId: 'A1002', amount: 80, reason: 'x', currency: 'USD' }),
      ).toMatchObject({
        status: 'issued',
      });
      expect(await listRefunds(db, { userId: 'user-a' })).toHaveLength(1);
    });

    it('tells the model what to fix in a bad amount or reason', () => {
      const tool = issueRefundTool.create(undefined as never, userA);
      const base = { orderId: 'A1002', reason: 'broken' };
      expect(validationMessages(tool, { ...base })[0]).toMatch(/amount is required/);
      expect(validationMessages(tool, { ...base, amount: '80' })[0]).toMatch(/amount is required/);
      expect(validationMessages(tool, { ...base, amount: 0 })[0]).toMatch(/more than 0/);
      expect(validationMessages(tool, { ...base, amount: -5 })[0]).toMatch(/more than 0/);
      expect(validationMessages(tool, { ...base, amount: 1.005 })[0]).toMatch(/more than two decimals/);
      expect(validationMessages(tool, { ...base, amount: 0.29 })).toEqual([]);
      expect(validationMessages(tool, { ...base, amount: 10_000_000 })[0]).toMatch(/no order is that large/);
      expect(validationMessages(tool, { orderId: 'A1002', amount: 5, reason: '  ' })[0]).toMatch(
        /reason is empty/,
      );
      expect(validationMessages(tool, { orderId: 'A1002', amount: 5, reason: 'x'.repeat(501) })[0]).toMatch(
        /longer than 500/,
      );
      expect(validationMessages(tool, { orderId: 'my order', amount: 5, reason: 'x' })[0]).toMatch(
        /^orderId looks like A1001/,
      );
    });

    it('previews the total, what was refunded and what would remain', async () => {
      const db = await connect(await emptyDatabase(engine));
      await refundOrder(db, { orderId: 'A1002', amountMinor: 100_00, reason: 'first', ...userA });
      const preview = await previewOf(db, { orderId: 'A1002', amount: 80, reason: 'x' }, userA);
      expect(preview.lines.map((line) => [line.label.en, line.value])).toEqual([
        ['Order total', '520.00 USD'],
        ['Refunded so far', '100.00 USD'],
        ['Left after this refund', '340.00 USD'],
      ]);
      expect(preview.warnings).toEqual([]);
      const over = await previewOf(db, { orderId: 'A1002', amount: 421, reason: 'x' }, userA);
      // More than is left never reaches a card (the refund's precondition refuses it first), so the
      // preview warns of nothing and shows nothing left.
      expect(over.warnings).toEqual([]);
      expect(over.lines.at(-1)?.value).toBe('0.00 USD');
    });
  });

  describe('refunds repository', () => {
    it('keeps each user’s refunds to that user, and only the owner voids one', async () => {
      const db = await connect(await emptyDatabase(engine));
      const mine = await refundOrder(db, { orderId: 'A1004', amountMinor: 500_00, reason: 'mine', ...userA });
      await refundOrder(db, { orderId: 'A1004', amountMinor: 10_00, reason: 'theirs', ...userB });
      expect((await listRefunds(db, { userId: 'user-a' })).map((refund) => refund.reason)).toEqual(['mine']);
      expect((await listRefunds(db, { userId: 'user-b' })).map((refund) => refund.reason)).toEqual([
        'theirs',
      ]);
      const refundId = mine.kind === 'issued' ? mine.refund.refundId : '';
      expect(await voidRefund(db, { refundId, userId: 'user-b' })).toBeUndefined();
      expect(await voidRefund(db, { refundId, userId: 'user-a' })).toMatchObject({ status: 'voided' });
      expect(await voidRefund(db, { refundId, userId: 'user-a' })).toBeUndefined();
      // A voided refund no longer counts against the total.
      expect(await getRefundBalance(db, 'A1004')).toMatchObject({
        refundedMinor: 10_00,
        remainingMinor: 558_00,
      });
    });

    it('commits a refund together with what the caller writes in the same transaction, or neither', async () => {
      const db = await connect(await emptyDatabase(engine));
      await expect(
        writeTransaction(db, async (transaction) => {
          await insertRefund(transaction, { orderId: 'A1003', amountMinor: 100, reason: 'x', ...userA });
          throw new Error('the record could not be written');
        }),
      ).rejects.toThrow('the record could not be written');
      expect(await listRefunds(db, { userId: 'user-a' })).toEqual([]);
    });

    // Two pools in one process stand for two instances on Postgres. SQLite's driver is
    // synchronous, so two connections in one process cannot wait for each other: its two
    // instances are the two processes of the next test.
    if (engine === 'postgres')
      it('never pays out more than the total when two instances refund one order at once', async () => {
        const target = await emptyDatabase(engine);
        const [first, second] = [await connect(target), await connect(target)];
        // A1002 totals 520.00: 12 refunds of 60.00 from two instances at once, 8 of which fit.
        const attempts = await Promise.all(
          Array.from({ length: 12 }, (_, index) =>
            refundOrder(index % 2 === 0 ? first : second, {
              orderId: 'A1002',
              amountMinor: 60_00,
              reason: `attempt ${index}`,
              ...userA,
            }),
          ),
        );
        expect(attempts.filter((attempt) => attempt.kind === 'issued')).toHaveLength(8);
        expect(attempts.filter((attempt) => attempt.kind === 'exceeds-remaining')).toHaveLength(4);
        expect(await getRefundBalance(first, 'A1002')).toMatchObject({
          refundedMinor: 480_00,
          remainingMinor: 40_00,
        });
      });

    it('never pays out more than the total when two processes refund one order at once', async () => {
      const target = await emptyDatabase(engine);
      const db = await connect(target);
      const run = promisify(execFile);
      const argument = target.url ?? target.path;
      // A1003 totals 649.00 USD: two processes, from the same moment, each ask for 20.00 thirty
      // times (1,200.00 in all); 32 refunds fit.
      const startAt = String(Date.now() + 4000);
      const outputs = await Promise.all(
        [1, 2].map(() =>
          run(
            'node_modules/.bin/tsx',
            ['tests/support/refund-in-process.ts', argument, 'A1003', '2000', '30', startAt],
            { timeout: 60_000 },
          ),
        ),
      );
      const kinds = outputs.flatMap(({ stdout }) => stdout.trim().split('\n'));
      expect(kinds.filter((kind) => kind === 'issued')).toHaveLength(32);
      expect(kinds.filter((kind) => kind === 'exceeds-remaining')).toHaveLength(28);
      expect(await getRefundBalance(db, 'A1003')).toMatchObject({
        refundedMinor: 640_00,
        remainingMinor: 9_00,
      });
    });
  });
});
