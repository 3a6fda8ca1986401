import { createMemoryApprovalRegistry, wrapToolsWithApproval } from '@toolgate/engine';
import { convertToModelMessages, generateText, stepCountIs, type ToolSet, type UIMessage } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOfflineModel } from '@/lib/ai/offline-model';
import { routeWorker } from '@/lib/ai/router';
import { type Db, selectTodos } from '@/lib/db';
import { createWorkerTools, type WorkerName } from '@/lib/tools';
import { countTickets } from '../support/database-reads';
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
const hasChinese = (text: string) => /[\u4e00-\u9fff]/.test(text);

type Turn = { worker: WorkerName; calls: { toolName: string; input: unknown }[]; text: string };

/**
 * A chat as the product runs it: each user message is routed over the saved history, the
 * chosen worker's tools answer through the real SDK loop, and the answer is saved with the
 * worker that wrote it (the metadata the router reads).
 */
function conversation({
  tools,
  metadata = true,
}: {
  tools?: (worker: WorkerName) => ToolSet;
  /** False: answers are kept without the worker that wrote them, as a conversation a client builds may be. */
  metadata?: boolean;
} = {}) {
  const history: UIMessage[] = [];
  let next = 0;
  return async (text: string): Promise<Turn> => {
    history.push({ id: `m${next++}`, role: 'user', parts: [{ type: 'text', text }] });
    const worker = (await routeWorker({ text, messages: history })) as WorkerName;
    const result = await generateText({
      model,
      tools: tools?.(worker) ?? createWorkerTools(worker, db, testUser),
      messages: await convertToModelMessages(history),
      stopWhen: stepCountIs(10),
    });
    history.push({
      id: `m${next++}`,
      role: 'assistant',
      parts: [{ type: 'text', text: result.text }],
      ...(metadata ? { metadata: { worker, model: 'offline' } } : {}),
    });
    const calls = result.steps.flatMap((step) =>
      step.toolCalls.map(({ toolName, input }) => ({ toolName, input })),
    );
    return { worker, calls, text: result.text };
  };
}

describe('a conversation with the offline model', () => {
  it('asks what the ticket should say and files the next message as its title', async () => {
    const say = conversation();
    const question = await say('I’d like to report a problem');
    expect(question).toEqual({
      worker: 'refund',
      calls: [],
      text: 'To open a ticket I need a title: what should the ticket say?',
    });
    const filed = await say('the fridge is noisy');
    expect(filed.worker).toBe('refund');
    expect(filed.calls).toEqual([{ toolName: 'createTicket', input: { title: 'the fridge is noisy' } }]);
    expect(filed.text).toBe(
      'Created ticket TK-000001: the fridge is noisy. Our support team will follow up.',
    );
  });

  it('files the answer to its question when the answers carry no metadata', async () => {
    const say = conversation({ metadata: false });
    expect((await say('I’d like to report a problem')).text).toContain('what should the ticket say?');
    const filed = await say('the coffee machine leaks');
    expect(filed.worker).toBe('refund');
    expect(filed.calls).toEqual([{ toolName: 'createTicket', input: { title: 'the coffee machine leaks' } }]);
  });

  it('answers thanks after a filed ticket without filing anything else', async () => {
    const say = conversation();
    await say('create a ticket: the lift is stuck');
    const thanks = await say('thank you, that’s all');
    expect(thanks.calls).toEqual([]);
    expect(thanks.text).toContain('You’re welcome');
    expect(await countTickets(db)).toBe(1);
  });

  it('asks 工单标题写什么 in Chinese and files the answer', async () => {
    const say = conversation();
    const question = await say('我想反馈个问题');
    expect(question.worker).toBe('refund');
    expect(question.text).toContain('工单标题写什么？');
    const filed = await say('洗衣机一直漏水');
    expect(filed.calls).toEqual([{ toolName: 'createTicket', input: { title: '洗衣机一直漏水' } }]);
    expect(filed.text).toBe('已为你创建工单 TK-000001：洗衣机一直漏水。客服会尽快跟进。');
  });

  it('takes a bare order number as the answer and keeps the language of the conversation', async () => {
    const english = conversation();
    expect((await english('where is my order')).text).toContain('Please give me the order number');
    const found = await english('A1001');
    expect(found.worker).toBe('order');
    expect(found.calls).toEqual([{ toolName: 'getOrderStatus', input: { orderId: 'A1001' } }]);
    expect(found.text).toContain('Order A1001 is shipped');

    const chinese = conversation();
    expect((await chinese('帮我查下我的订单')).text).toContain('请告诉我订单号');
    const zh = await chinese('A1002');
    expect(zh.calls).toEqual([{ toolName: 'getOrderStatus', input: { orderId: 'A1002' } }]);
    expect(zh.text).toMatch(/^订单 A1002 当前状态/);
  });

  it('asks what the to-do should say and adds the answer', async () => {
    const say = conversation();
    expect((await say('I want to add something to my to-do list')).text).toBe('What should the to-do say?');
    const added = await say('renew my passport');
    expect(added.worker).toBe('assistant');
    expect(added.calls).toEqual([{ toolName: 'addTodo', input: { title: 'renew my passport' } }]);
    expect((await selectTodos(db, testUser)).map((todo) => todo.title)).toEqual(['renew my passport']);
  });

  it('switches worker when the reply to a question starts a new topic', async () => {
    const say = conversation();
    await say('I’d like to report a problem');
    const order = await say('actually, where is A1003?');
    expect(order.worker).toBe('order');
    expect(order.calls).toEqual([{ toolName: 'getOrderStatus', input: { orderId: 'A1003' } }]);
    const policy = await say('运费多少');
    expect(policy.worker).toBe('knowledge');
    expect(await countTickets(db)).toBe(0);
  });

  it('looks up two orders asked for in one message', async () => {
    const turn = await conversation()('订单 A1004、A1006 都到哪了');
    expect(turn.worker).toBe('order');
    expect(turn.calls).toEqual([
      { toolName: 'getOrderStatus', input: { orderId: 'A1004' } },
      { toolName: 'getOrderStatus', input: { orderId: 'A1006' } },
    ]);
    expect(turn.text).toContain('订单 A1004 当前状态');
    expect(turn.text).toContain('订单 A1006 当前状态');
  });

  it('answers the order and names the refund question it cannot answer here', async () => {
    const turn = await conversation()('Where’s A1005 and how do refunds work?');
    expect(turn.worker).toBe('order');
    expect(turn.calls).toEqual([{ toolName: 'getOrderStatus', input: { orderId: 'A1005' } }]);
    expect(turn.text).toContain('Order A1005');
    expect(turn.text).toContain(
      'I can’t search the help centre (returns, refunds, shipping, warranty…) here (“how do refunds work?”): please ask me that in a separate message.',
    );
  });

  it('understands requests phrased without the words the old rules needed', async () => {
    const say = conversation();
    expect(await say('make sure I remember to renew my passport')).toMatchObject({
      worker: 'assistant',
      calls: [{ toolName: 'addTodo', input: { title: 'renew my passport' } }],
    });
    expect(await say('别让我忘了交物业费')).toMatchObject({
      worker: 'assistant',
      calls: [{ toolName: 'addTodo', input: { title: '交物业费' } }],
    });
    const plate = await say('what’s left on my plate?');
    expect(plate).toMatchObject({ worker: 'assistant', calls: [{ toolName: 'listTodos', input: {} }] });
    expect(plate.text).toContain('- renew my passport');
    expect(await say('any news on A1008?')).toMatchObject({
      worker: 'order',
      calls: [{ toolName: 'getOrderStatus', input: { orderId: 'A1008' } }],
    });
    for (const [text, title] of [
      ['帮我登记一下：门锁坏了', '门锁坏了'],
      ['反馈个问题，App 打不开', 'App 打不开'],
      ['开个单，发票开错了', '发票开错了'],
    ]) {
      expect(await say(text)).toMatchObject({
        worker: 'refund',
        calls: [{ toolName: 'createTicket', input: { title } }],
      });
    }
  });

  it('replies in the language of the latest message, including the wrap-up after a denial', async () => {
    const registry = createMemoryApprovalRegistry();
    const say = conversation({
      tools: (worker) =>
        wrapToolsWithApproval(createWorkerTools(worker, db, testUser), ['createTicket'], {
          registry,
          sessionId: 'chat-1',
          timeoutMs: 60_000,
          emit: (event) => {
            setTimeout(() => registry.resolve(event.approvalId, 'chat-1', false), 0);
          },
        }),
    });
    const english = await say('where is my order A1001');
    expect(hasChinese(english.text)).toBe(false);
    const denied = await say('帮我创建一个工单：包装破损');
    expect(denied.text).toBe('好的，已取消：没有创建任何内容，我不会再重试。');
    const back = await say('create a ticket: torn packaging');
    expect(back.text).toBe('Understood: nothing was created, and I won’t try again.');
    expect(await countTickets(db)).toBe(0);
  });
});

describe('/tool commands', () => {
  it('are routed to the worker that holds the tool and call it with the given input', async () => {
    const say = conversation();
    const turn = await say('/tool getOrderStatus {"orderId":"A1001"}');
    expect(turn.worker).toBe('order');
    expect(turn.calls).toEqual([{ toolName: 'getOrderStatus', input: { orderId: 'A1001' } }]);
    expect(turn.text).toContain('Order A1001 is shipped');
    const todo = await say('/tool addTodo {"title":"demo"}');
    expect(todo.worker).toBe('assistant');
    expect((await selectTodos(db, testUser)).map((item) => item.title)).toEqual(['demo']);
  });

  it('name what this worker can do when the tool is not in its table', async () => {
    const result = await generateText({
      model,
      tools: createWorkerTools('order', db, testUser),
      prompt: '/tool addTodo {"title":"sneaky"}',
      stopWhen: stepCountIs(5),
    });
    expect(result.steps.flatMap((step) => step.toolCalls)).toEqual([]);
    expect(result.text).toMatch(/^There is no tool named addTodo here\. I can:/);
    expect(result.text).toContain('getOrderStatus');
    expect(await selectTodos(db, testUser)).toEqual([]);
  });

  it('explain the form when the input is not JSON', async () => {
    const turn = await conversation()('/tool getOrderStatus {orderId: A1001}');
    expect(turn.calls).toEqual([]);
    expect(turn.text).toContain('/tool <name> <json input>');
  });
});
