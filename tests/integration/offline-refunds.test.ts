import { convertToModelMessages, generateText, stepCountIs, type ToolSet, type UIMessage } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOfflineModel } from '@/lib/ai/offline-model';
import { routeWorker } from '@/lib/ai/router';
import { type Db, getRefundBalance } from '@/lib/db';
import { createWorkerTools, type WorkerName } from '@/lib/tools';
import { toolDenial } from '../../packages/engine/src/shells/wrap-tools-with-approval';
import { listRefunds } from '../support/database-reads';
import { openTestDatabase } from '../support/test-database';

const testUser = { userId: 'user-a' };
let db: Db;
let close: () => Promise<void>;

beforeEach(async () => {
  ({ db, close } = await openTestDatabase('sqlite'));
});

afterEach(async () => {
  await close();
});

const model = createOfflineModel();

type Turn = { worker: WorkerName; calls: { toolName: string; input: unknown }[]; text: string };

/**
 * A chat as the product runs it, without approval cards: each message is routed over the saved
 * history, the chosen worker's tools answer through the real SDK loop, and the answer is saved
 * with the worker that wrote it. `pinned`: the worker the client chose instead of routing.
 */
function conversation({
  pinned,
  tools = (worker) => createWorkerTools(worker, db, testUser),
}: {
  pinned?: WorkerName;
  tools?: (worker: WorkerName) => ToolSet;
} = {}) {
  const history: UIMessage[] = [];
  let next = 0;
  return async (text: string): Promise<Turn> => {
    history.push({ id: `m${next++}`, role: 'user', parts: [{ type: 'text', text }] });
    const worker = pinned ?? ((await routeWorker({ text, messages: history })) as WorkerName);
    const result = await generateText({
      model,
      tools: tools(worker),
      messages: await convertToModelMessages(history),
      stopWhen: stepCountIs(10),
    });
    history.push({
      id: `m${next++}`,
      role: 'assistant',
      parts: [{ type: 'text', text: result.text }],
      metadata: { worker, model: 'offline' },
    });
    const calls = result.steps.flatMap((step) =>
      step.toolCalls.map(({ toolName, input }) => ({ toolName, input })),
    );
    return { worker, calls, text: result.text };
  };
}

describe('refunds with the offline model', () => {
  it.each([
    [
      '订单 A1004 退 80 元，收到时坏了',
      { orderId: 'A1004', amount: 80, currency: 'CNY', reason: '收到时坏了' },
      '已为订单 A1004 退款 80.00 CNY，退款单号 RF-000001。',
    ],
    [
      'refund $80 on A1002, it arrived broken',
      { orderId: 'A1002', amount: 80, currency: 'USD', reason: 'it arrived broken' },
      'Refunded 80.00 USD on order A1002: refund RF-000001.',
    ],
    [
      'A1003 申请退款 120',
      { orderId: 'A1003', amount: 120, reason: '用户在对话中申请退款' },
      '已为订单 A1003 退款 120.00 USD，退款单号 RF-000001。',
    ],
    [
      'I want my money back for A1005, 45.50 dollars, wrong size',
      { orderId: 'A1005', amount: 45.5, currency: 'USD', reason: 'wrong size' },
      'Refunded 45.50 USD on order A1005: refund RF-000001.',
    ],
    [
      'A1004 的台灯坏了，退我 ¥50',
      { orderId: 'A1004', amount: 50, currency: 'CNY', reason: '台灯坏了' },
      '已为订单 A1004 退款 50.00 CNY，退款单号 RF-000001。',
    ],
  ])('routes %s to the refund worker and refunds the amount it names', async (text, input, reply) => {
    const turn = await conversation()(text);
    expect(turn).toEqual({ worker: 'refund', calls: [{ toolName: 'issueRefund', input }], text: reply });
  });

  it('asks for the amount, in the user’s language, and the answer completes the refund', async () => {
    const say = conversation();
    expect(await say('I want a refund for A1007, the charger is dead')).toEqual({
      worker: 'refund',
      calls: [],
      text: 'How much should I refund? Please give me the amount (e.g. 80 or 45.50).',
    });
    const refunded = await say('30');
    expect(refunded.worker).toBe('refund');
    expect(refunded.calls).toEqual([
      { toolName: 'issueRefund', input: { orderId: 'A1007', amount: 30, reason: 'the charger is dead' } },
    ]);
    expect(await getRefundBalance(db, 'A1007')).toMatchObject({ refundedMinor: 30_00 });
  });

  it('asks for the order, then the amount, in Chinese, and keeps the reason given first', async () => {
    const say = conversation();
    expect((await say('我要退款，因为尺码不对')).text).toBe(
      '要给哪个订单退款？请告诉我订单号（形如 A1001）。',
    );
    // A bare order number answers the question: it is not read as a lookup of that order.
    const asked = await say('A1006');
    expect(asked).toMatchObject({
      worker: 'refund',
      calls: [],
      text: '要退多少钱？请告诉我金额（例如 80 或 45.50）。',
    });
    const done = await say('60 元');
    expect(done.calls).toEqual([
      {
        toolName: 'issueRefund',
        input: { orderId: 'A1006', amount: 60, currency: 'CNY', reason: '尺码不对' },
      },
    ]);
    expect(done.text).toBe('已为订单 A1006 退款 60.00 CNY，退款单号 RF-000001。');
  });

  it('asks which order when a refund names two, instead of paying twice', async () => {
    const turn = await conversation()('refund 40 on A1002 and A1003');
    expect(turn.calls).toEqual([]);
    expect(turn.text).toMatch(
      /Which order should I refund\? Please give me the order number \(it looks like A1001\)\.$/,
    );
    expect(await listRefunds(db, { userId: 'user-a' })).toEqual([]);
  });

  it('explains a refused refund: more than is left on the order', async () => {
    const say = conversation();
    await say('refund 500 on A1002, it never arrived');
    const refused = await say('refund 30 on A1002, it never arrived');
    expect(refused.calls).toHaveLength(1);
    expect(refused.text).toBe(
      'Nothing was refunded: order A1002 totals 520.00 USD and at most 20.00 USD is left to refund. Ask again with an amount up to that if you like.',
    );
    expect(await listRefunds(db, { userId: 'user-a' })).toHaveLength(1);
  });

  it('explains a refund in a currency the order was not paid in, and pays nothing', async () => {
    const turn = await conversation()('refund ¥80 on A1002');
    expect(turn.calls).toEqual([
      {
        toolName: 'issueRefund',
        input: { orderId: 'A1002', amount: 80, currency: 'CNY', reason: 'Refund requested in chat' },
      },
    ]);
    expect(turn.text).toBe(
      'Nothing was refunded: order A1002 is paid in USD. Please ask again with an amount in USD.',
    );
    expect(await listRefunds(db, { userId: 'user-a' })).toEqual([]);
  });

  it('reads 元 as renminbi: 80 元 on an order paid in USD is refused and explained, never paid as 80 USD', async () => {
    const turn = await conversation()('订单 A1002 退 80 元，收到时坏了');
    expect(turn.calls).toEqual([
      {
        toolName: 'issueRefund',
        input: { orderId: 'A1002', amount: 80, currency: 'CNY', reason: '收到时坏了' },
      },
    ]);
    expect(turn.text).toMatch(/没有退款.*USD/);
    expect(await listRefunds(db, { userId: 'user-a' })).toEqual([]);
  });

  it.each([
    ['what is your refund policy?', 'knowledge', 'searchKnowledgeBase'],
    ['退款什么时候到账', 'knowledge', 'searchKnowledgeBase'],
    ['where is my order A1002?', 'order', 'getOrderStatus'],
    ['create a ticket about a refund that never arrived', 'refund', 'createTicket'],
  ] as const)('does not refund for %s', async (text, worker, toolName) => {
    const turn = await conversation()(text);
    expect(turn.worker).toBe(worker);
    expect(turn.calls.map((call) => call.toolName)).toEqual([toolName]);
    expect(await listRefunds(db, { userId: 'user-a' })).toEqual([]);
  });

  it('says no money was refunded when the person declines the card', async () => {
    // What the approval shell returns for a "no": the call never reaches the tool.
    const declining = (worker: WorkerName): ToolSet => {
      const table: ToolSet = createWorkerTools(worker, db, testUser);
      const refund = table.issueRefund;
      if (refund === undefined) return table;
      return {
        ...table,
        issueRefund: { ...refund, execute: async () => toolDenial('denied', 'issueRefund') },
      };
    };
    const turn = await conversation({ tools: declining })('refund $80 on A1002, it arrived broken');
    expect(turn.text).toBe('Understood: no money was refunded, and I won’t try again.');
    expect(await listRefunds(db, { userId: 'user-a' })).toEqual([]);
  });

  it('cannot refund from the order worker: it says it can’t and what it can do', async () => {
    const turn = await conversation({ pinned: 'order' })('refund 80 on A1002, it arrived broken');
    expect(turn.calls).toEqual([]);
    expect(turn.text).toMatch(/^I can’t refund money on an order here\./);
    expect(await listRefunds(db, { userId: 'user-a' })).toEqual([]);
  });
});
