import { describe, expect, it } from 'vitest';
import { type MadeCall, runMessage } from '../support/grade-offline-model';

/*
 * How the offline model reads everyday wording: refusals said as a wish, questions about the
 * to-do list, corrections without a comma, cancelling what exists, requests in mixed Chinese and
 * English, pinyin slips, asking for a manager, pasted order confirmations. Every message asks
 * for what the expected calls say and nothing more: an unwanted write fails the test.
 */
const callsOf = async (text: string) => (await runMessage(text)).calls;
const shape = (calls: readonly MadeCall[]) => calls.map((call) => ({ tool: call.toolName, ...call.input }));

describe('a refusal said as a wish writes nothing', () => {
  it.each([
    ['not tryna open a ticket, just wanna know if A1003 shipped', 'A1003'],
    ["I'm NOT asking for a ticket!! where is A1001", 'A1001'],
    ['摆烂了，不想开工单了，就查查 A1003 啥时候到', 'A1003'],
    ['我不是要投诉，就问 A1002 到哪了', 'A1002'],
    ['不开工单，就查下 A1005 物流', 'A1005'],
  ])('%s only looks the order up', async (text, orderId) => {
    expect(shape(await callsOf(text))).toEqual([{ tool: 'getOrderStatus', orderId }]);
  });

  it.each([
    ['反馈个问题，App 打不开', 'App 打不开'],
    ['门打不开了，帮我报修', '门打不开了'],
    ['我不开心，帮我建个工单：耳机坏了', '耳机坏了'],
  ])('%s still opens a ticket: 不 of 打不开 or 不开心 refuses nothing', async (text, title) => {
    expect(shape(await callsOf(text))).toEqual([{ tool: 'createTicket', title }]);
  });

  it('still opens the ticket when the wish is about something else ("不想再等了，帮我开个工单")', async () => {
    expect(shape(await callsOf('不想再等了，帮我开个工单：耳机坏了'))).toEqual([
      { tool: 'createTicket', title: '耳机坏了' },
    ]);
  });

  it('searches what is looked up instead of the refused to-do', async () => {
    const calls = await callsOf('不用加待办，帮我查下退货政策就行');
    expect(shape(calls)).toEqual([{ tool: 'searchKnowledgeBase', query: '退货政策' }]);
  });
});

describe('a question about the to-do list lists it and adds nothing', () => {
  it.each(['我的 to-do list 里还有啥', 'todo list 里面有什么', '待办清单里有啥'])('%s', async (text) => {
    expect(shape(await callsOf(text))).toEqual([{ tool: 'listTodos' }]);
  });

  it('lists the to-dos asked for in formal words, adding none', async () => {
    expect(shape(await callsOf('Kindly provide the list of my to-do items'))).toEqual([
      { tool: 'listTodos' },
    ]);
  });

  it('adds, then lists, when the to-do is named and the list asked to be seen after it', async () => {
    expect(shape(await callsOf('Can you add in my todo: call grandma, and after show me all todo.'))).toEqual(
      [{ tool: 'addTodo', title: 'call grandma' }, { tool: 'listTodos' }],
    );
    expect(shape(await callsOf('加个待办：交水费，再列一下'))).toEqual([
      { tool: 'addTodo', title: '交水费' },
      { tool: 'listTodos' },
    ]);
    expect(
      shape(await callsOf('okay add a to do water the plants on the balcony and then show me my list')),
    ).toEqual([{ tool: 'addTodo', title: 'water the plants on the balcony' }, { tool: 'listTodos' }]);
  });

  it('adds a to-do and looks an order up when both are asked, the title ending where the lookup begins', async () => {
    expect(shape(await callsOf('加个待办：周五交房租，再帮我查一下 A1002 到哪了'))).toEqual([
      { tool: 'addTodo', title: '周五交房租' },
      { tool: 'getOrderStatus', orderId: 'A1002' },
    ]);
  });
});

describe('the last word wins, with or without a comma', () => {
  it.each([
    ['refund A1002 40 usd.. no 45', { amount: 45, currency: 'USD' }],
    ['refund 20 on A1003 sorry 25, typo', { amount: 25 }],
    ['refund 50 on A1005!!! NO WAIT 70, the lid too', { amount: 70 }],
  ])('%s', async (text, expected) => {
    const [call, ...rest] = await callsOf(text);
    expect(rest).toEqual([]);
    expect(call?.toolName).toBe('issueRefund');
    expect(call?.input).toMatchObject(expected);
  });

  it('an order number right after "no" replaces the one before it', async () => {
    expect(shape(await callsOf('where is A1002 no A1005'))).toEqual([
      { tool: 'getOrderStatus', orderId: 'A1005' },
    ]);
  });
});

describe('cancelling or changing what exists is no new ticket, and says no tool does it', () => {
  it.each([
    ['把我的工单 TK-000123 撤了，问题解决了', /没有取消工单的工具/],
    ['我的投诉工单 TK-000333 作废吧', /没有取消工单的工具/],
    ['帮我 cancel 一下 TK-000444 这个工单', /没有取消工单的工具/],
    ['void ticket TK-000222 its fixed', /no tool here to cancel a ticket/],
    ['帮我把订单 A1003 的地址改一下', /没有修改订单的工具/],
    ['can you reschedule the delivery of A1002 to Monday', /no tool here to change an order/],
  ])('%s', async (text, reply) => {
    const answer = await runMessage(text);
    expect(answer.calls).toEqual([]);
    expect(answer.reply).toMatch(reply);
  });

  it('a how-to question about changing an address is still searched', async () => {
    expect((await callsOf('how do i change my delivery address')).map((call) => call.toolName)).toEqual([
      'searchKnowledgeBase',
    ]);
  });
});

describe('requests in mixed words, with slips, and for a person', () => {
  it.each([
    ['我的 iPad 充不进电，帮我开个 ticket', { tool: 'createTicket', title: '我的 iPad 充不进电' }],
    ['remind 我明天买 coffee beans', { tool: 'addTodo', title: '明天买 coffee beans' }],
    [
      'the screen keeps flickering. ticket please',
      { tool: 'createTicket', title: 'the screen keeps flickering' },
    ],
    ['tix: card reader frozen', { tool: 'createTicket', title: 'card reader frozen' }],
    ['帮我加个代办：周五交水费', { tool: 'addTodo', title: '周五交水费' }],
    [
      'I want that you remember me to call the plumber on monday',
      { tool: 'addTodo', title: 'call the plumber on monday' },
    ],
  ])('%s', async (text, expected) => {
    expect(shape(await callsOf(text))).toEqual([expected]);
  });

  it('reads 推款 as 退款', async () => {
    expect(shape(await callsOf('A1004 推款 80 元，坏了'))).toMatchObject([
      { tool: 'issueRefund', orderId: 'A1004', amount: 80, currency: 'CNY' },
    ]);
  });

  it.each([
    ['get me a manager now', /support ticket/],
    ['叫你们的人来处理', /工单/],
  ])('%s is offered a ticket', async (text, reply) => {
    const answer = await runMessage(text);
    expect(answer.calls).toEqual([]);
    expect(answer.reply).toMatch(reply);
  });
});

describe('titles a person would write', () => {
  it.each([
    [
      'ngl my phone case is lowkey cracked already. can u make a ticket fr',
      'my phone case is cracked already',
    ],
    [
      'Hello, my fridge make very loud sound at night, please I want make complain.',
      'my fridge make very loud sound at night',
    ],
    [
      'To whom it may concern, Please be advised that the receipt for order A1002 shows the wrong date. I would be grateful if a ticket could be raised. Yours faithfully, K. Lee',
      'the receipt for order A1002 shows the wrong date',
    ],
    [
      'Please note the delivery note for order A1005 lists the wrong address. I would be grateful if a ticket could be raised to correct it. Sincerely, P. Ames',
      'the delivery note for order A1005 lists the wrong address',
    ],
    ['本人于订单 A1002 购买的台灯无法开启，特此投诉。', '订单 A1002 购买的台灯无法开启'],
  ])('%s', async (text, title) => {
    const calls = await callsOf(text);
    expect(calls.map((call) => [call.toolName, call.input.title])).toEqual([['createTicket', title]]);
  });
});

describe('a pasted order confirmation is the shop’s words', () => {
  it('its total is no refund amount', async () => {
    const text =
      'Order Confirmation\nOrder #: A1002\nItems: Office Chair x1\nTotal: $520.00\n---\nthe chair arrived with a cracked base, can I get 60 dollars back';
    expect(shape(await callsOf(text))).toMatchObject([
      { tool: 'issueRefund', orderId: 'A1002', amount: 60, currency: 'USD' },
    ]);
  });

  it('its item rows do not make two amounts of one refund', async () => {
    const text =
      'Order Summary\nA1002 Desk $400.00\nA1002 Lamp $20.00\n\nthe lamp is broken, refund 20 dollars please';
    expect(shape(await callsOf(text))).toMatchObject([{ tool: 'issueRefund', orderId: 'A1002', amount: 20 }]);
  });

  it('its labels and item rows are no title, and its order is the ticket’s', async () => {
    expect(
      shape(await callsOf('订单编号：A1004\n商品：台灯 ×1\n实付：¥568.00\n\n台灯不亮，帮我开个工单')),
    ).toEqual([{ tool: 'createTicket', title: '台灯不亮', orderId: 'A1004' }]);
    expect(
      shape(
        await callsOf('Order A1005\n1x Blender $49.00\n\nblender smells like burning, please open a ticket'),
      ),
    ).toEqual([{ tool: 'createTicket', title: 'blender smells like burning', orderId: 'A1005' }]);
  });

  it('its heading is no to-do title, and its shipping notice is no question', async () => {
    expect(shape(await callsOf('【已发货】A1001\n\n提醒我明天去取快递'))).toEqual([
      { tool: 'addTodo', title: '明天去取快递' },
    ]);
    expect(
      shape(await callsOf('Your order A1003 has been shipped.\nTracking: 1Z999\n\nwhen will it arrive?')),
    ).toEqual([{ tool: 'getOrderStatus', orderId: 'A1003' }]);
  });

  it('a line of the person’s own with a price in it is kept', async () => {
    expect(shape(await callsOf('hi\nplease refund $20 on A1003'))).toMatchObject([
      { tool: 'issueRefund', orderId: 'A1003', amount: 20, currency: 'USD' },
    ]);
  });
});

describe('a message that names an order and asks nothing else', () => {
  it.each(['A1006 hmm', 'A1002 ...'])('%s looks the order up', async (text) => {
    expect(shape(await callsOf(text))).toEqual([{ tool: 'getOrderStatus', orderId: text.slice(0, 5) }]);
  });
});

describe('a help question after a greeting', () => {
  it('is searched, not answered with the greeting', async () => {
    const calls = await callsOf('hello hello is this thing on okay so what payment methods do you take');
    expect(calls.map((call) => call.toolName)).toEqual(['searchKnowledgeBase']);
  });

  it('a greeting asking how the assistant is stays a greeting', async () => {
    expect(await callsOf('hi, how are you?')).toEqual([]);
  });
});

describe('out of scope', () => {
  it.each(['could you write a thank-you message for my teacher?', '有什么好看的电视剧'])(
    '%s makes no call',
    async (text) => {
      expect(await callsOf(text)).toEqual([]);
    },
  );
});
