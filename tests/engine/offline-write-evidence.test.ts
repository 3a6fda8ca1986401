import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { createOfflineModel } from '@/lib/ai/offline-model';
import { offlineTools } from '@/lib/ai/offline-tools';
import { runMessage } from '../support/grade-offline-model';

/*
 * The offline model writes (a ticket, a to-do, a refund) only for a request made in so many words:
 * a negated or cancelled action is not done, one already done is not done again, a request no tool
 * serves is declined with what the tools can do, and an unsure write is a question. Each message is
 * answered by the whole model with every tool offered, and every call it makes is followed.
 */
const calls = async (text: string) => (await runMessage(text)).calls;

describe('the offline model writes only what was asked for', () => {
  it.each([
    [
      'no ticket needed, just tell me where A1002 is',
      [{ toolName: 'getOrderStatus', input: { orderId: 'A1002' } }],
    ],
    ['别建单了，帮我查下 A1007 到哪了', [{ toolName: 'getOrderStatus', input: { orderId: 'A1007' } }]],
    ['那个退款不要了', []],
    ['pls do not open a ticket, I am only letting off steam about the slow app', []],
    ['不用记到待办里，我自己会记得', []],
  ])('scopes a negation to its action: %s', async (text, expected) => {
    expect(await calls(text)).toEqual(expected);
  });

  it.each([
    ['帮我创建一个工单：停止后取消', '停止后取消'],
    ['create a ticket: cancel button does nothing', 'cancel button does nothing'],
    ['加一个待办：别忘了取消旧的订阅', '别忘了取消旧的订阅'],
  ])('reads the words of a stated title as the title, not as a cancellation: %s', async (text, title) => {
    const [call] = await calls(text);
    expect(call?.input).toMatchObject({ title });
  });

  it.each([
    'we already filed a ticket for the broken hinge last week, please don’t open another',
    '这个之前已经提过工单了，不要重复建',
  ])('does not write again what was already done: %s', async (text) => {
    const { calls: made, reply } = await runMessage(text);
    expect(made).toEqual([]);
    expect(reply).toMatch(/already done|已经办过/);
  });

  it.each([
    ['translate “where is the station” into French', 'Sorry, I can’t do that here.'],
    ['tell me a joke about cats', 'Sorry, I can’t do that here.'],
    ['给我写一首关于大海的诗', '抱歉，这个我在这里做不了。'],
  ])('declines a request no tool serves, and lists what it can do: %s', async (text, refusal) => {
    const { calls: made, reply } = await runMessage(text);
    expect(made).toEqual([]);
    expect(reply.startsWith(refusal)).toBe(true);
    expect(reply).toMatch(/createTicket/);
  });

  it.each([
    'the kettle handle got loose again 🙄',
    'broken zipper on the jacket i bought',
    '充电宝又鼓包了，服了',
  ])('asks rather than writes when no write was asked for: %s', async (text) => {
    const { calls: made, reply } = await runMessage(text);
    expect(made).toEqual([]);
    expect(reply).toMatch(/Would you like me to|你是想让我|didn’t understand|没有理解/);
  });

  it('drops an order it was about on "forget it", and says nothing was done', async () => {
    const { calls: made, reply } = await runMessage('A1005 — forget it, my wife picked it up already');
    expect(made).toEqual([]);
    expect(reply).toMatch(/nothing was changed/);
  });
});

describe('the offline model reads the request before the order it names', () => {
  it.each([
    [
      'A1006 showed up with a cracked lid, can you open a ticket',
      [
        {
          toolName: 'createTicket',
          input: { title: 'A1006 showed up with a cracked lid', orderId: 'A1006' },
        },
      ],
    ],
    [
      'A1008 的音箱有杂音，帮我建个工单',
      [{ toolName: 'createTicket', input: { title: 'A1008 的音箱有杂音', orderId: 'A1008' } }],
    ],
    [
      'A1003 能不能退我三十块',
      [
        {
          toolName: 'issueRefund',
          input: { orderId: 'A1003', amount: 30, currency: 'CNY', reason: '用户在对话中申请退款' },
        },
      ],
    ],
    [
      'A1004 came with a dent, I’d like 25 back',
      [{ toolName: 'issueRefund', input: { orderId: 'A1004', amount: 25, reason: 'came with a dent' } }],
    ],
  ])('%s', async (text, expected) => {
    expect(await calls(text)).toEqual(expected);
  });

  it('still looks the order up when the message asks where it is', async () => {
    expect(await calls('A1007 发了没？没发就算了')).toEqual([
      { toolName: 'getOrderStatus', input: { orderId: 'A1007' } },
    ]);
  });
});

describe('the offline model takes titles whole', () => {
  it.each([
    ['create a ticket: A and create a ticket: B', ['A', 'B']],
    ['帮我创建一个工单：A，再创建一个工单：B', ['A', 'B']],
    ['create a ticket: one', ['one']],
  ])('keeps a one-word title written after a colon: %s', async (text, titles) => {
    expect((await calls(text)).map((call) => call.input.title)).toEqual(titles);
  });

  it('does not take another request for the title of the one beside it', async () => {
    expect((await calls('add a to-do, and list your to-dos')).map((call) => call.toolName)).toEqual([
      'listTodos',
    ]);
  });

  it.each([
    ['open a ticket titled "Checkout page freezes on step two"', 'Checkout page freezes on step two'],
    ['add a todo to pick up the dry cleaning on friday', 'pick up the dry cleaning on friday'],
    ['tkt pls: printer offline since monday', 'printer offline since monday'],
  ])('%s', async (text, title) => {
    const made = await calls(text);
    expect(made).toHaveLength(1);
    expect(made[0]?.input.title).toBe(title);
  });
});

describe('the question asked instead of an unsure write', () => {
  const model = createOfflineModel();
  const tools = offlineTools.map((tool) => ({
    type: 'function' as const,
    name: tool.name,
    inputSchema: { type: 'object' as const },
  }));
  const turn = async (messages: string[]) => {
    const prompt: LanguageModelV4Prompt = messages.map((text, index) =>
      index % 2 === 0
        ? { role: 'user', content: [{ type: 'text', text }] }
        : { role: 'assistant', content: [{ type: 'text', text }] },
    );
    const { content } = await model.doGenerate({ prompt, tools });
    return content;
  };

  it.each([
    [
      'broken zipper on the jacket i bought',
      'yes please',
      'createTicket',
      'broken zipper on the jacket i bought',
    ],
    ['充电宝又鼓包了，服了', '是的', 'createTicket', '充电宝又鼓包了，服了'],
  ])(
    'is answered by "yes": the message it asked about becomes the call (%s)',
    async (first, answer, toolName, title) => {
      const [question] = await turn([first]);
      expect(question?.type).toBe('text');
      const asked = question?.type === 'text' ? question.text : '';
      const content = await turn([first, asked, answer]);
      expect(content).toMatchObject([{ type: 'tool-call', toolName }]);
      const call = content[0];
      expect(call?.type === 'tool-call' ? JSON.parse(call.input) : undefined).toEqual({ title });
    },
  );

  it('is answered by "no": nothing is written', async () => {
    const [question] = await turn(['broken zipper on the jacket i bought']);
    const asked = question?.type === 'text' ? question.text : '';
    expect(asked).toMatch(/^Would you like me to open a support ticket\?/);
    const content = await turn(['broken zipper on the jacket i bought', asked, 'no thanks']);
    expect(content).toEqual([{ type: 'text', text: expect.stringMatching(/nothing was changed/) }]);
  });
});

describe('the offline model, on what a request is about', () => {
  it.each([
    [
      'remind me to cancel the newspaper subscription',
      [{ toolName: 'addTodo', input: { title: 'cancel the newspaper subscription' } }],
    ],
    [
      'the customer wants a ticket opened: A1006 came without its charger',
      [{ toolName: 'createTicket', input: { title: 'A1006 came without its charger', orderId: 'A1006' } }],
    ],
    [
      'forget about a refund, I only need to know if A1005 was dispatched',
      [{ toolName: 'getOrderStatus', input: { orderId: 'A1005' } }],
    ],
    [
      'could I get $15 back on A1007? it arrived a week late',
      [
        {
          toolName: 'issueRefund',
          input: { orderId: 'A1007', amount: 15, currency: 'USD', reason: 'it arrived a week late' },
        },
      ],
    ],
    ['最近有什么活动', [{ toolName: 'searchKnowledgeBase', input: { query: '最近有什么活动' } }]],
  ])('%s', async (text, expected) => {
    expect(await calls(text)).toEqual(expected);
  });

  it.each(['summarize this paragraph in two lines please', '帮我总结一下这篇文章'])(
    'declines summarising text: %s',
    async (text) => {
      const { calls: made, reply } = await runMessage(text);
      expect(made).toEqual([]);
      expect(reply).toMatch(/^(?:Sorry, I can’t do that here\.|抱歉，这个我在这里做不了。)/);
    },
  );
});
