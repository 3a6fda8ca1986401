import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { createOfflineModel } from '@/lib/ai/offline-model';
import { offlineTools } from '@/lib/ai/offline-tools';
import { classifyWorker } from '@/lib/ai/router';
import { runMessage } from '../support/grade-offline-model';

/*
 * The offline model reads words, not character windows: a correction's last word wins, a typo in
 * an action word is read as meant, a title is what a person would write, and a request it cannot
 * serve gets an offer or an explanation instead of a dead end. Each message is answered by the
 * whole model with every tool offered, and every call it makes is followed.
 */
const calls = async (text: string) => (await runMessage(text)).calls;

describe('the offline model reads a correction mid-message: the last word wins', () => {
  it.each([
    ['refund 50 on A1001 … no, make it 35', { orderId: 'A1001', amount: 35 }],
    ['I’d like 20 back on A1003, sorry I meant A1004', { orderId: 'A1004', amount: 20 }],
    ['A1002 退 90 元，不对，是 70 元', { orderId: 'A1002', amount: 70, currency: 'CNY' }],
    ['check A1002… never mind, just refund me 60 dollars on it', { orderId: 'A1002', amount: 60 }],
    ['查一下 A1005……算了，直接退我 80 块吧', { orderId: 'A1005', amount: 80, currency: 'CNY' }],
  ])('refunds the corrected order and amount, and nothing else: %s', async (text, refund) => {
    const made = await calls(text);
    expect(made).toHaveLength(1);
    expect(made[0]?.toolName).toBe('issueRefund');
    expect(made[0]?.input).toMatchObject(refund);
  });

  it('reads "I mean" before words as a clarification, not a correction', async () => {
    const [call] = await calls('The kettle, I mean the new one, leaks. open a ticket');
    expect(call?.input.title).toBe('The kettle, I mean the new one, leaks');
  });

  it.each([
    ['where is order A1003, I mean A1004', 'A1004'],
    ['帮我查一下 A1001，哦不对，是 A1007', 'A1007'],
  ])('looks up only the corrected order: %s', async (text, orderId) => {
    expect(await calls(text)).toEqual([{ toolName: 'getOrderStatus', input: { orderId } }]);
  });

  it.each([
    ['remind me to email Bob — no, email Carol — about the invoice', 'email Carol about the invoice'],
    ['add a todo to send the budget to Ann, sorry, to Ben', 'send the budget to Ben'],
    ['提醒我给王老师打电话，不对，是给赵老师', '给赵老师打电话'],
    ['记一下明天交水费，不对，是后天交水费', '后天交水费'],
  ])('titles a to-do with the corrected words: %s', async (text, title) => {
    expect(await calls(text)).toEqual([{ toolName: 'addTodo', input: { title } }]);
  });

  it.each([
    [
      'open a ticket: the kettle is leaking. wait, not the kettle, the toaster is sparking',
      'the toaster is sparking',
    ],
    ['建个工单：冰箱不制冷，哦说错了，是冰箱一直响', '冰箱一直响'],
  ])('titles a ticket with the corrected words: %s', async (text, title) => {
    expect(await calls(text)).toEqual([{ toolName: 'createTicket', input: { title } }]);
  });

  it.each([
    'open a ticket about my mouse... actually never mind, it works now',
    '帮我开个工单说耳机坏了，算了算了，又好了，不用了',
  ])('writes nothing when the request is dropped after it was made: %s', async (text) => {
    const { calls: made, reply } = await runMessage(text);
    expect(made).toEqual([]);
    expect(reply).toMatch(/nothing was changed|什么都没有改动/);
  });
});

describe('the offline model reads a mistyped action word as meant', () => {
  it('opens a ticket for "can u open a tikcet pls"', async () => {
    expect(await calls('can u open a tikcet pls, my lamp is brokn')).toEqual([
      { toolName: 'createTicket', input: { title: 'my lamp is brokn' } },
    ]);
  });

  it.each([
    ['remind me to call Todd about the lease', 'call Todd about the lease'],
    ['remind me to check the ticker price', 'check the ticker price'],
  ])('leaves names and real words close to an action word alone: %s', async (text, title) => {
    expect(await calls(text)).toEqual([{ toolName: 'addTodo', input: { title } }]);
  });

  it('refunds for "refnd"', async () => {
    const [call] = await calls('Plese refnd 15 usd on A1002, the item was damage.');
    expect(call).toMatchObject({
      toolName: 'issueRefund',
      input: { orderId: 'A1002', amount: 15, currency: 'USD' },
    });
  });
});

describe('the offline model titles a ticket or to-do as a person would', () => {
  it.each([
    [
      'okay so um the kettle I got last week makes this hissing noise and smells like plastic can you open a ticket for that thanks',
      'the kettle I got last week makes this hissing noise and smells like plastic',
    ],
    [
      'Dear Sir or Madam, I am writing on behalf of Contoso Ltd. The six desks delivered under order A1002 arrived with scratched tops. We kindly request that you open a support ticket for this matter. Yours faithfully, John Smith, Facilities',
      'The six desks delivered under order A1002 arrived with scratched tops',
    ],
    [
      '尊敬的客服：您好！我司上月通过订单 A1006 采购的五台打印机中，有一台卡纸严重。烦请贵司创建工单处理。此致 敬礼！行政部 李娜',
      '我司上月通过订单 A1006 采购的五台打印机中，有一台卡纸严重',
    ],
    ['那个冰箱一直不制冷里面东西都坏了帮我报个修', '冰箱一直不制冷里面东西都坏了'],
    ['你好，我的电脑开不了机了，可以帮我开一个工单吗谢谢你', '我的电脑开不了机了'],
    ['客服小姐姐，耳机左边没声音，帮我提个售后单呗', '耳机左边没声音'],
    ['Hi! Could you open a ticket titled "Search returns nothing"? Cheers, Ann', 'Search returns nothing'],
  ])('keeps the problem, not the greeting, filler, request or sign-off: %s', async (text, title) => {
    const [call] = await calls(text);
    expect(call?.toolName).toBe('createTicket');
    expect(call?.input.title).toBe(title);
  });

  it('titles a to-do with what follows "remind me to", not with the greeting before it', async () => {
    expect(await calls('Hello dear, please remind me to buy stamps tomorrow')).toEqual([
      { toolName: 'addTodo', input: { title: 'buy stamps tomorrow' } },
    ]);
  });

  it('leaves slang after a to-do out of its title', async () => {
    expect(await calls('pls remind me to call grandma, no cap i always forget')).toEqual([
      { toolName: 'addTodo', input: { title: 'call grandma' } },
    ]);
  });

  it('never makes a title longer than the tool takes, and cuts it between words', async () => {
    const problem = `The conveyor belt ${'rattles and shakes and squeaks '.repeat(12)}every morning`;
    const [call] = await calls(`Dear team, ${problem}. Please open a ticket for this. Regards, Kim`);
    const title = String(call?.input.title);
    expect(title.length).toBeLessThanOrEqual(200);
    expect(problem.startsWith(title)).toBe(true);
    expect(problem.charAt(title.length)).toBe(' ');
  });
});

describe('the offline model makes one call per request', () => {
  it.each(["what's on my to-do list?", '我的待办清单上有什么？'])(
    'only lists the to-dos for a question about the list: %s',
    async (text) => {
      expect(await calls(text)).toEqual([{ toolName: 'listTodos', input: {} }]);
    },
  );

  it('adds a to-do stated in quotes after 新增一条待办事项，标题为, without also listing', async () => {
    expect(await calls('请新增一条待办事项，标题为「续签合同」')).toEqual([
      { toolName: 'addTodo', input: { title: '续签合同' } },
    ]);
  });

  it('refunds a complaint that asks for money back, without also searching the help centre', async () => {
    const made = await calls(
      "I'm so annoyed with order A1004, the mug arrived chipped. could I get 30 back?",
    );
    expect(made.map((call) => call.toolName)).toEqual(['issueRefund']);
    expect(made[0]?.input).toMatchObject({ orderId: 'A1004', amount: 30 });
  });

  it('still adds and lists when both are asked for', async () => {
    expect(
      (await calls('add a todo: book the dentist, then show me my list')).map((call) => call.toolName),
    ).toEqual(['addTodo', 'listTodos']);
  });
});

describe('the offline model asks the help centre what a letter asks', () => {
  it.each([
    [
      'Good morning, Could you please let me know how long the warranty on kettles lasts? With thanks, P. Gomez',
      'Could you please let me know how long the warranty on kettles lasts',
    ],
    ['您好，我想咨询一下。请问你们周末发货吗？谢谢。', '请问你们周末发货吗'],
    ['what is your return policy', 'what is your return policy'],
  ])('searches the sentence that asks, without greeting or sign-off: %s', async (text, query) => {
    expect(await calls(text)).toEqual([{ toolName: 'searchKnowledgeBase', input: { query } }]);
  });

  it('never searches for more than the search takes, and cuts between words', async () => {
    const [call] = await calls(
      `Hello. Could you tell me whether ${'the blue and the red and the green '.repeat(20)}kettles ship abroad? Regards`,
    );
    const query = String(call?.input.query);
    expect(call?.toolName).toBe('searchKnowledgeBase');
    expect(query.length).toBeLessThanOrEqual(500);
    expect(query.endsWith(' ')).toBe(false);
  });
});

/** The model's answer to a conversation, all tools offered. */
async function answer(prompt: LanguageModelV4Prompt) {
  const tools = offlineTools.map((tool) => ({ type: 'function' as const, name: tool.name, inputSchema: {} }));
  const { content } = await createOfflineModel().doGenerate({ prompt, tools });
  return content;
}

describe('the offline model offers what it can instead of a dead end', () => {
  it.each([
    ['I want a human', /open a support ticket\?/],
    ['can I talk to a real person please', /open a support ticket\?/],
    ['我要找人工客服', /创建客服工单吗？/],
  ])(
    'offers a ticket to someone who asks for a person, from the worker that opens one: %s',
    async (text, offer) => {
      const { calls: made, reply } = await runMessage(text);
      expect(made).toEqual([]);
      expect(reply).toMatch(offer);
      expect(classifyWorker(text)).toBe('refund');
    },
  );

  it('opens the ticket when the person says yes', async () => {
    const { reply } = await runMessage('I want a human');
    const content = await answer([
      { role: 'user', content: [{ type: 'text', text: 'I want a human' }] },
      { role: 'assistant', content: [{ type: 'text', text: reply }] },
      { role: 'user', content: [{ type: 'text', text: 'yes' }] },
    ]);
    const call = content.find((part) => part.type === 'tool-call');
    expect(call).toMatchObject({ toolName: 'createTicket' });
    expect(JSON.parse(call?.type === 'tool-call' ? call.input : '{}')).toEqual({
      title: 'Customer asked to talk to a person',
    });
  });

  it.each([
    ['cancel my ticket TK-000123', 'there is no tool here to cancel a ticket (TK-000123)'],
    ['Please close ticket TK-000999, it is solved', 'there is no tool here to cancel a ticket (TK-000999)'],
    ['can you change my order A1003?', 'there is no tool here to change an order (A1003)'],
    ['我想撤销工单 TK-000012', '这里没有取消工单的工具'],
  ])('says a tool that does not exist does not, and what it can do: %s', async (text, said) => {
    const { calls: made, reply } = await runMessage(text);
    expect(made).toEqual([]);
    expect(reply).toContain(said);
    expect(reply).toMatch(/createTicket/);
  });
});
