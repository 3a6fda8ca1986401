import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { createMemoryApprovalRegistry, wrapToolsWithApproval } from '@toolgate/engine';
import { generateText, stepCountIs, streamText, type ToolSet } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOfflineModel, isOfflineModel } from '@/lib/ai/offline-model';
import { routeWorker } from '@/lib/ai/router';
import { type Db, selectTodos } from '@/lib/db';
import { createWorkerTools, type WorkerName } from '@/lib/tools';
import { PublicError } from '../../packages/engine/src/errors/public-error';
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

/** One user turn through the real AI SDK loop; returns the calls made and the final answer. */
async function runTurn(tools: ToolSet, prompt: string, { stream = false } = {}) {
  const result = stream
    ? streamText({ model, tools, prompt, stopWhen: stepCountIs(10) })
    : await generateText({ model, tools, prompt, stopWhen: stepCountIs(10) });
  const steps = await result.steps;
  return {
    calls: steps.flatMap((step) => step.toolCalls.map(({ toolName, input }) => ({ toolName, input }))),
    text: await result.text,
    steps: steps.length,
  };
}

type Family = { text: string; worker: WorkerName; calls: { toolName: string; input: unknown }[] };

const phraseFamilies: Family[] = [
  {
    text: '帮我创建一个工单：耳机没声音',
    worker: 'refund',
    calls: [{ toolName: 'createTicket', input: { title: '耳机没声音' } }],
  },
  {
    text: '建个工单 快递盒破了',
    worker: 'refund',
    calls: [{ toolName: 'createTicket', input: { title: '快递盒破了' } }],
  },
  {
    text: 'create a ticket: Headphones have no sound',
    worker: 'refund',
    calls: [{ toolName: 'createTicket', input: { title: 'Headphones have no sound' } }],
  },
  {
    text: 'open a ticket about my broken charger',
    worker: 'refund',
    calls: [{ toolName: 'createTicket', input: { title: 'my broken charger' } }],
  },
  {
    text: '查询订单 A1001',
    worker: 'order',
    calls: [{ toolName: 'getOrderStatus', input: { orderId: 'A1001' } }],
  },
  {
    text: '订单 A1004 到哪了',
    worker: 'order',
    calls: [{ toolName: 'getOrderStatus', input: { orderId: 'A1004' } }],
  },
  {
    text: 'where is my order A1001',
    worker: 'order',
    calls: [{ toolName: 'getOrderStatus', input: { orderId: 'A1001' } }],
  },
  {
    text: 'status of order a1002',
    worker: 'order',
    calls: [{ toolName: 'getOrderStatus', input: { orderId: 'A1002' } }],
  },
  {
    text: '退货政策是什么',
    worker: 'knowledge',
    calls: [{ toolName: 'searchKnowledgeBase', input: { query: '退货政策是什么' } }],
  },
  {
    text: '怎么退款',
    worker: 'knowledge',
    calls: [{ toolName: 'searchKnowledgeBase', input: { query: '怎么退款' } }],
  },
  {
    text: 'what is your return policy',
    worker: 'knowledge',
    calls: [{ toolName: 'searchKnowledgeBase', input: { query: 'what is your return policy' } }],
  },
  {
    text: 'how long does shipping take',
    worker: 'knowledge',
    calls: [{ toolName: 'searchKnowledgeBase', input: { query: 'how long does shipping take' } }],
  },
  {
    text: '加一个待办：买牛奶',
    worker: 'assistant',
    calls: [{ toolName: 'addTodo', input: { title: '买牛奶' } }],
  },
  {
    text: '记一下 明天交报告',
    worker: 'assistant',
    calls: [{ toolName: 'addTodo', input: { title: '明天交报告' } }],
  },
  {
    text: 'add a todo: buy milk',
    worker: 'assistant',
    calls: [{ toolName: 'addTodo', input: { title: 'buy milk' } }],
  },
  {
    text: 'remind me to call mom',
    worker: 'assistant',
    calls: [{ toolName: 'addTodo', input: { title: 'call mom' } }],
  },
  {
    text: '加一个待办：买牛奶，然后列出我的待办',
    worker: 'assistant',
    calls: [
      { toolName: 'addTodo', input: { title: '买牛奶' } },
      { toolName: 'listTodos', input: {} },
    ],
  },
  {
    text: 'add a todo: buy milk, then list my todos',
    worker: 'assistant',
    calls: [
      { toolName: 'addTodo', input: { title: 'buy milk' } },
      { toolName: 'listTodos', input: {} },
    ],
  },
  { text: '列出待办', worker: 'assistant', calls: [{ toolName: 'listTodos', input: {} }] },
  { text: '我的待办有哪些', worker: 'assistant', calls: [{ toolName: 'listTodos', input: {} }] },
  { text: 'list my todos', worker: 'assistant', calls: [{ toolName: 'listTodos', input: {} }] },
  { text: 'show my todos', worker: 'assistant', calls: [{ toolName: 'listTodos', input: {} }] },
];

describe('createOfflineModel', () => {
  it('implements the v4 provider spec and is recognisable as the offline model', () => {
    expect(model.specificationVersion).toBe('v4');
    expect(isOfflineModel(model)).toBe(true);
    expect(isOfflineModel({ provider: 'openai.chat' })).toBe(false);
  });

  describe.each(phraseFamilies)('given "$text"', ({ text, worker, calls }) => {
    it(`is routed to the ${worker} worker`, async () => {
      expect(await routeWorker({ text })).toBe(worker);
    });

    it(`calls ${calls.map((call) => call.toolName).join(' then ')} with the exact arguments and answers in the user’s language`, async () => {
      const turn = await runTurn(createWorkerTools(worker, db, testUser), text);
      expect(turn.calls).toEqual(calls);
      expect(turn.text).not.toBe('');
      expect(hasChinese(turn.text)).toBe(hasChinese(text));
    });
  });

  it.each([
    ['你好', true],
    ['你能做什么', true],
    ['hello', false],
    ['help', false],
  ])('answers "%s" without a tool, naming what this worker’s tools can do', async (text, chinese) => {
    for (const worker of ['order', 'assistant'] as const) {
      const turn = await runTurn(createWorkerTools(worker, db, testUser), text);
      expect(turn.calls).toEqual([]);
      expect(hasChinese(turn.text)).toBe(chinese);
      for (const toolName of Object.keys(createWorkerTools(worker, db, testUser)))
        expect(turn.text).toContain(toolName);
    }
  });

  it('creates a ticket when asked in Chinese', async () => {
    const turn = await runTurn(createWorkerTools('refund', db, testUser), '帮我创建一个工单：测试审批');
    expect(turn.text).toBe('已为你创建工单 TK-000001：测试审批。客服会尽快跟进。');
    expect(await countTickets(db)).toBe(1);
  });

  it('creates a ticket when asked in English', async () => {
    const turn = await runTurn(
      createWorkerTools('refund', db, testUser),
      'create a ticket: Parcel arrived damaged',
    );
    expect(turn.text).toContain('Created ticket TK-000001: Parcel arrived damaged');
  });

  it('adds a todo, reads the result, lists the todos, then answers — one request, two tools', async () => {
    const turn = await runTurn(
      createWorkerTools('assistant', db, testUser),
      '加一个待办：买牛奶，然后列出我的待办',
      {
        stream: true,
      },
    );
    expect(turn.calls.map((call) => call.toolName)).toEqual(['addTodo', 'listTodos']);
    expect(turn.steps).toBe(3);
    expect(turn.text).toContain('- 买牛奶');
    expect((await selectTodos(db, testUser)).map((todo) => todo.title)).toEqual(['买牛奶']);
  });

  it('looks up two orders of one message in one step, as parallel calls', async () => {
    const turn = await runTurn(createWorkerTools('order', db, testUser), '订单 A1004、A1006 都到哪了');
    expect(turn.calls).toEqual([
      { toolName: 'getOrderStatus', input: { orderId: 'A1004' } },
      { toolName: 'getOrderStatus', input: { orderId: 'A1006' } },
    ]);
    expect(turn.steps).toBe(2);
    expect(turn.text).toContain('A1004');
    expect(turn.text).toContain('A1006');
  });

  it('opens two tickets asked for in one message in one step, so both can wait for approval at once', async () => {
    const turn = await runTurn(
      createWorkerTools('refund', db, testUser),
      'create a ticket: printer broken and create a ticket: screen flickers',
    );
    expect(turn.calls).toEqual([
      { toolName: 'createTicket', input: { title: 'printer broken' } },
      { toolName: 'createTicket', input: { title: 'screen flickers' } },
    ]);
    expect(turn.steps).toBe(2);
    expect(await countTickets(db)).toBe(2);
  });

  it('never calls a tool outside its table: the order worker asked for a ticket says what it can do', async () => {
    const chinese = await runTurn(createWorkerTools('order', db, testUser), '帮我创建一个工单：耳机坏了');
    expect(chinese.calls).toEqual([]);
    expect(chinese.text).toContain('不能创建客服工单');
    expect(chinese.text).toContain('getOrderStatus');
    const english = await runTurn(
      createWorkerTools('order', db, testUser),
      'create a ticket: broken headphones',
    );
    expect(english.calls).toEqual([]);
    expect(english.text).toMatch(/^I can’t open a support ticket here\. I can:/);
    expect(english.text).toContain('look up an order’s status (getOrderStatus)');
    expect(await countTickets(db)).toBe(0);
  });

  it('does not add a to-do from the knowledge worker', async () => {
    const turn = await runTurn(createWorkerTools('knowledge', db, testUser), 'add a todo: buy milk');
    expect(turn.calls).toEqual([]);
    expect(turn.text).toContain('searchKnowledgeBase');
    expect(await selectTodos(db, testUser)).toEqual([]);
  });

  it('answers thanks with you are welcome, not with "I didn’t understand"', async () => {
    for (const [text, expected] of [
      ['thank you, that’s all', 'You’re welcome'],
      ['thanks!', 'You’re welcome'],
      ['谢谢', '不客气'],
    ] as const) {
      const turn = await runTurn(createWorkerTools('knowledge', db, testUser), text);
      expect(turn.calls).toEqual([]);
      expect(turn.text).toContain(expected);
      expect(turn.text).not.toMatch(/didn’t understand|没有理解/);
    }
  });

  it('greets a greeting with a remark after it, and adds no to-do', async () => {
    for (const [text, greeting] of [
      ['你好，今天天气不错哦', '你好！'],
      ['hi, I like turtles', 'Hi!'],
    ] as const) {
      const turn = await runTurn(createWorkerTools('assistant', db, testUser), text);
      expect(turn.calls).toEqual([]);
      expect(turn.text.startsWith(greeting)).toBe(true);
    }
    expect(await selectTodos(db, testUser)).toEqual([]);
  });

  it('names what the other workers can do when it does not understand', async () => {
    const english = await runTurn(createWorkerTools('knowledge', db, testUser), 'blue');
    expect(english.text).toContain('didn’t understand');
    expect(english.text).toContain('add a to-do, and list your to-dos');
    for (const action of [
      'search the help centre',
      'look up an order’s status',
      'open a support ticket',
      'add a to-do',
      'list your to-dos',
    ])
      expect(english.text).toContain(action);
    const chinese = await runTurn(createWorkerTools('order', db, testUser), '蓝色的那个');
    for (const action of ['查询订单状态', '创建客服工单', '搜索帮助中心', '添加待办', '列出你的待办'])
      expect(chinese.text).toContain(action);
  });

  it('asks instead of opening a ticket when it is not sure one was meant', async () => {
    const turn = await runTurn(createWorkerTools('refund', db, testUser), 'problem');
    expect(turn.calls).toEqual([]);
    // Either question is an ask, not a write: whether to open one, or what it should say.
    expect(turn.text).toMatch(
      /Would you like me to open a support ticket\?|To open a ticket I need a title: what should the ticket say\?/,
    );
    expect(await countTickets(db)).toBe(0);
  });

  it('calls no tool when the call offers none', async () => {
    const turn = await runTurn({}, '查询订单 A1001');
    expect(turn.calls).toEqual([]);
    expect(turn.text).toContain('不能查询订单状态');
  });

  it('answers from the order it found, and says so when there is none', async () => {
    const found = await runTurn(createWorkerTools('order', db, testUser), 'where is my order A1001');
    expect(found.text).toContain('Order A1001 is shipped');
    expect(found.text).toContain('SF Express');
    const missing = await runTurn(createWorkerTools('order', db, testUser), '订单 A9999 到哪了');
    expect(missing.text).toBe('没有找到订单 A9999。请核对订单号（形如 A1001）。');
  });

  it('summarises the top knowledge-base hit with its title', async () => {
    const chinese = await runTurn(createWorkerTools('knowledge', db, testUser), '退货政策是什么');
    expect(chinese.text).toMatch(/^根据帮助中心的「退货政策」/);
    const english = await runTurn(createWorkerTools('knowledge', db, testUser), 'what is your return policy');
    expect(english.text).toMatch(/^From the help centre article “Return policy”/);
  });

  it('asks for a missing ticket title instead of calling the tool without one', async () => {
    const chinese = await runTurn(createWorkerTools('refund', db, testUser), '帮我创建一个工单');
    expect(chinese.calls).toEqual([]);
    expect(chinese.text).toBe('要创建工单，我还需要一个标题：工单标题写什么？');
    const english = await runTurn(createWorkerTools('refund', db, testUser), 'create a ticket');
    expect(english.calls).toEqual([]);
    expect(english.text).toBe('To open a ticket I need a title: what should the ticket say?');
    expect(await countTickets(db)).toBe(0);
  });

  it('asks for the title when a call fails validation, in the conversation’s language, and does not retry', async () => {
    const english = await runTurn(
      createWorkerTools('refund', db, testUser),
      '/tool createTicket {"title":""}',
    );
    expect(english.calls).toEqual([{ toolName: 'createTicket', input: { title: '' } }]);
    expect(english.text).toContain('To open a ticket I need a title');
    const chinese = await generateText({
      model,
      tools: createWorkerTools('refund', db, testUser),
      messages: [
        { role: 'user', content: '你好' },
        { role: 'assistant', content: '你好！' },
        { role: 'user', content: '/tool createTicket {"title":""}' },
      ],
      stopWhen: stepCountIs(10),
    });
    expect(chinese.steps.flatMap((step) => step.toolCalls)).toHaveLength(1);
    expect(chinese.text).toBe('要创建工单，我还需要一个标题：工单标题写什么？');
    expect(await countTickets(db)).toBe(0);
  });

  it('asks for the order number when none was given', async () => {
    const turn = await runTurn(createWorkerTools('order', db, testUser), 'where is my order');
    expect(turn.calls).toEqual([]);
    expect(turn.text).toContain('Please give me the order number');
  });

  describe('behind the approval shell', () => {
    const approvalTurn = async (prompt: string, decide: 'deny' | 'expire') => {
      const registry = createMemoryApprovalRegistry();
      const tools = wrapToolsWithApproval(createWorkerTools('refund', db, testUser), ['createTicket'], {
        registry,
        sessionId: 'chat-1',
        timeoutMs: decide === 'expire' ? 20 : 60_000,
        emit: (event) => {
          if (decide === 'deny') setTimeout(() => registry.resolve(event.approvalId, 'chat-1', false), 0);
        },
      });
      return runTurn(tools, prompt);
    };

    it('wraps up politely when the user denies, creating nothing and not retrying', async () => {
      const chinese = await approvalTurn('帮我创建一个工单：测试审批', 'deny');
      expect(chinese.calls).toHaveLength(1);
      expect(chinese.text).toBe('好的，已取消：没有创建任何内容，我不会再重试。');
      const english = await approvalTurn('create a ticket: test approval', 'deny');
      expect(english.text).toBe('Understood: nothing was created, and I won’t try again.');
      expect(await countTickets(db)).toBe(0);
    });

    it('tells both outcomes when one of two cards is allowed and the other denied', async () => {
      const mixedTurn = (prompt: string) => {
        const registry = createMemoryApprovalRegistry();
        let asked = 0;
        const tools = wrapToolsWithApproval(createWorkerTools('refund', db, testUser), ['createTicket'], {
          registry,
          sessionId: 'chat-1',
          timeoutMs: 60_000,
          // The first card is allowed, the second denied.
          emit: (event) => {
            const approved = asked++ === 0;
            setTimeout(() => registry.resolve(event.approvalId, 'chat-1', approved), 0);
          },
        });
        return runTurn(tools, prompt);
      };
      const chinese = await mixedTurn('帮我创建一个工单：打印机坏了，再创建一个工单：屏幕闪烁');
      expect(chinese.calls).toHaveLength(2);
      expect(chinese.text).toMatch(/^已为你创建工单 TK-\d{6}：打印机坏了。/);
      expect(chinese.text).toContain('「屏幕闪烁」已被拒绝：没有为它创建任何内容');
      const english = await mixedTurn('create a ticket: printer broken and create a ticket: screen flickers');
      expect(english.text).toMatch(/^Created ticket TK-\d{6}: printer broken\./);
      expect(english.text).toContain('“screen flickers” was declined: nothing was created for it');
      expect(await countTickets(db)).toBe(2);
    });

    it('says the approval request expired when nobody answered', async () => {
      const chinese = await approvalTurn('帮我创建一个工单：测试审批', 'expire');
      expect(chinese.text).toContain('审批请求已超时');
      expect(chinese.text).toContain('没有创建任何内容');
      const english = await approvalTurn('create a ticket: test approval', 'expire');
      expect(english.text).toContain('The approval request expired');
      expect(await countTickets(db)).toBe(0);
    });
  });

  it('tells the user when to try again after a rate limit', async () => {
    const tools = {
      createTicket: {
        ...createWorkerTools('refund', db, testUser).createTicket,
        execute: async () => ({ rateLimited: true, retryAfterMs: 4200 }),
      },
    };
    expect((await runTurn(tools, '帮我创建一个工单：X')).text).toBe('请求太频繁了，请 5 秒后再试。');
    expect((await runTurn(tools, 'create a ticket: X')).text).toContain('try again in 5 seconds');
  });

  it('reports a failing tool once instead of calling it again', async () => {
    const tools = {
      addTodo: {
        ...createWorkerTools('assistant', db, testUser).addTodo,
        execute: async () => {
          throw new Error('database is locked');
        },
      },
      listTodos: createWorkerTools('assistant', db, testUser).listTodos,
    };
    const turn = await runTurn(tools, 'add a todo: buy milk, then list my todos');
    expect(turn.calls.map((call) => call.toolName)).toEqual(['addTodo']);
    expect(turn.text).toBe('Sorry, addTodo failed: database is locked. Please try again later.');
  });

  it("answers a failure the server logged with its reference id, in the user's language", async () => {
    const tools = {
      addTodo: {
        ...createWorkerTools('assistant', db, testUser).addTodo,
        execute: async () => {
          throw new PublicError('ERR-7F3K2A', 'addTodo failed');
        },
      },
    };
    expect((await runTurn(tools, '加一个待办：买牛奶')).text).toBe(
      '抱歉，addTodo 执行失败（参考编号 ERR-7F3K2A）。请稍后再试。',
    );
    expect((await runTurn(tools, 'add a todo: buy milk')).text).toBe(
      'Sorry, addTodo failed (reference ERR-7F3K2A). Please try again later.',
    );
  });

  it('streams its answer as several small text deltas', async () => {
    const result = streamText({
      model,
      tools: createWorkerTools('assistant', db, testUser),
      prompt: 'hello',
    });
    const deltas: string[] = [];
    for await (const part of result.fullStream) if (part.type === 'text-delta') deltas.push(part.text);
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join('')).toBe(await result.text);
  });

  it('waits delayMs between text deltas', async () => {
    const slow = createOfflineModel({ delayMs: 20 });
    const started = Date.now();
    const result = streamText({ model: slow, prompt: 'hi' });
    await result.text;
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
  });

  describe('at the provider level', () => {
    const fixedIds = () => {
      let next = 0;
      return () => `id${next++}`;
    };
    const options = (prompt: LanguageModelV4CallOptions['prompt']): LanguageModelV4CallOptions => ({
      prompt,
      tools: [{ type: 'function', name: 'createTicket', inputSchema: { type: 'object' } }],
    });

    it('returns the same content from doGenerate as it streams from doStream', async () => {
      const call = options([{ role: 'user', content: [{ type: 'text', text: 'create a ticket: X' }] }]);
      const generated = await createOfflineModel({ generateId: fixedIds() }).doGenerate(call);
      const { stream } = await createOfflineModel({ generateId: fixedIds() }).doStream(call);
      const parts: LanguageModelV4StreamPart[] = [];
      for await (const part of stream) parts.push(part);
      expect(generated.content).toEqual([
        { type: 'tool-call', toolCallId: 'call_id0', toolName: 'createTicket', input: '{"title":"X"}' },
      ]);
      expect(parts.map((part) => part.type)).toEqual([
        'stream-start',
        'response-metadata',
        'tool-input-start',
        'tool-input-delta',
        'tool-input-end',
        'tool-call',
        'finish',
      ]);
      expect(parts.find((part) => part.type === 'tool-call')).toEqual(generated.content[0]);
      expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'tool-calls' } });
    });

    it('reads an SDK execution-denied result as a denial', async () => {
      const result = await model.doGenerate(
        options([
          { role: 'user', content: [{ type: 'text', text: 'create a ticket: X' }] },
          {
            role: 'assistant',
            content: [
              { type: 'tool-call', toolCallId: 'c1', toolName: 'createTicket', input: { title: 'X' } },
            ],
          },
          {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: 'c1',
                toolName: 'createTicket',
                output: { type: 'execution-denied' },
              },
            ],
          },
        ]),
      );
      expect(result.content).toEqual([
        { type: 'text', text: 'Understood: nothing was created, and I won’t try again.' },
      ]);
      expect(result.finishReason.unified).toBe('stop');
    });

    it('answers a step with one ticket created and one declined with both, in either language', async () => {
      const mixedStep = (text: string) =>
        options([
          { role: 'user', content: [{ type: 'text', text }] },
          {
            role: 'assistant',
            content: [
              { type: 'tool-call', toolCallId: 'c1', toolName: 'createTicket', input: { title: 'A' } },
              { type: 'tool-call', toolCallId: 'c2', toolName: 'createTicket', input: { title: 'B' } },
            ],
          },
          {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: 'c1',
                toolName: 'createTicket',
                output: { type: 'json', value: { ticketId: 'TK-000001', title: 'A', status: 'open' } },
              },
              {
                type: 'tool-result',
                toolCallId: 'c2',
                toolName: 'createTicket',
                output: { type: 'execution-denied' },
              },
            ],
          },
        ]);
      const english = await model.doGenerate(mixedStep('create a ticket: A and create a ticket: B'));
      expect(english.content).toEqual([
        {
          type: 'text',
          text:
            'Created ticket TK-000001: A. Our support team will follow up.\n\n' +
            '“B” was declined: nothing was created for it, and I won’t try again.',
        },
      ]);
      const chinese = await model.doGenerate(mixedStep('帮我创建一个工单：A，再创建一个工单：B'));
      expect(chinese.content).toEqual([
        {
          type: 'text',
          text: '已为你创建工单 TK-000001：A。客服会尽快跟进。\n\n「B」已被拒绝：没有为它创建任何内容，我不会再重试。',
        },
      ]);
    });

    it('says a denial once when every card of the step was denied', async () => {
      const denied = { type: 'execution-denied' as const };
      const result = await model.doGenerate(
        options([
          { role: 'user', content: [{ type: 'text', text: 'create a ticket: A and create a ticket: B' }] },
          {
            role: 'assistant',
            content: [
              { type: 'tool-call', toolCallId: 'c1', toolName: 'createTicket', input: { title: 'A' } },
              { type: 'tool-call', toolCallId: 'c2', toolName: 'createTicket', input: { title: 'B' } },
            ],
          },
          {
            role: 'tool',
            content: [
              { type: 'tool-result', toolCallId: 'c1', toolName: 'createTicket', output: denied },
              { type: 'tool-result', toolCallId: 'c2', toolName: 'createTicket', output: denied },
            ],
          },
        ]),
      );
      expect(result.content).toEqual([
        { type: 'text', text: 'Understood: nothing was created, and I won’t try again.' },
      ]);
    });

    it('looks only at the latest user turn, so an earlier ticket does not stop a new one', async () => {
      const result = await model.doGenerate(
        options([
          { role: 'user', content: [{ type: 'text', text: 'create a ticket: first' }] },
          {
            role: 'assistant',
            content: [
              { type: 'tool-call', toolCallId: 'c1', toolName: 'createTicket', input: { title: 'first' } },
            ],
          },
          {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: 'c1',
                toolName: 'createTicket',
                output: { type: 'json', value: { ticketId: 'TK-000001', title: 'first', status: 'open' } },
              },
            ],
          },
          { role: 'assistant', content: [{ type: 'text', text: 'Created ticket TK-000001: first.' }] },
          { role: 'user', content: [{ type: 'text', text: 'create a ticket: second' }] },
        ]),
      );
      expect(result.content).toEqual([
        expect.objectContaining({ type: 'tool-call', input: '{"title":"second"}' }),
      ]);
    });
  });
});
