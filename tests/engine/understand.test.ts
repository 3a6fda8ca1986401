import { describe, expect, it } from 'vitest';
import { understand } from '@/lib/ai/nlu/understand';
import { parseToolCommand } from '@/lib/ai/tool-command';

/*
 * Phrasings written for this test, found in no corpus template: they check that the model
 * reads the language, not the examples it was trained on.
 */
describe('understand', () => {
  it.each([
    ['make sure I remember to renew my passport', { intent: 'addTodo', title: 'renew my passport' }],
    ['别让我忘了交物业费', { intent: 'addTodo', title: '交物业费' }],
    ['hey, make sure I don’t forget to water the cactus', { intent: 'addTodo', title: 'water the cactus' }],
    [
      'please remind me that I have to call the bank tomorrow',
      { intent: 'addTodo', title: 'call the bank tomorrow' },
    ],
    ['帮我记一下周五去银行', { intent: 'addTodo', title: '周五去银行' }],
    ['any news on A1008?', { intent: 'getOrderStatus', orderIds: ['A1008'] }],
    ['is a1003 going to make it by friday', { intent: 'getOrderStatus', orderIds: ['A1003'] }],
    ['A1006 到底发没发货', { intent: 'getOrderStatus', orderIds: ['A1006'] }],
    ["what's left on my plate?", { intent: 'listTodos' }],
    ['我还有啥没干完的', { intent: 'listTodos' }],
    ['帮我登记一下，洗衣机漏水', { intent: 'createTicket', title: '洗衣机漏水' }],
    ['我要反馈：屏幕有坏点', { intent: 'createTicket', title: '屏幕有坏点' }],
    ['开个单，快递丢了', { intent: 'createTicket', title: '快递丢了' }],
    [
      'please tell support that the microwave sparks',
      { intent: 'createTicket', title: 'the microwave sparks' },
    ],
    ['can I get my money back for a sweater that shrank?', { intent: 'searchKnowledgeBase' }],
    ['发票怎么申请', { intent: 'searchKnowledgeBase' }],
  ] as const)('reads "%s" as one request with its argument', (text, expected) => {
    const { requests } = understand(text);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject(expected);
  });

  it('finds both requests in "Where’s A1005 and how do refunds work?"', () => {
    expect(understand('Where’s A1005 and how do refunds work?').requests).toEqual([
      { intent: 'getOrderStatus', orderIds: ['A1005'] },
      { intent: 'searchKnowledgeBase', query: 'how do refunds work?' },
    ]);
  });

  it('reads every order number of a message into one lookup request', () => {
    expect(understand('订单 A1004、A1006 都到哪了').requests).toEqual([
      { intent: 'getOrderStatus', orderIds: ['A1004', 'A1006'] },
    ]);
    expect(understand('where are a1001 and A1002?').requests).toEqual([
      { intent: 'getOrderStatus', orderIds: ['A1001', 'A1002'] },
    ]);
  });

  it('reads two tickets asked for in one message as two requests, each with its title', () => {
    expect(
      understand('create a ticket: printer broken and create a ticket: screen flickers').requests,
    ).toEqual([
      { intent: 'createTicket', title: 'printer broken' },
      { intent: 'createTicket', title: 'screen flickers' },
    ]);
    expect(understand('帮我创建一个工单：打印机坏了，再创建一个工单：屏幕闪烁').requests).toEqual([
      { intent: 'createTicket', title: '打印机坏了' },
      { intent: 'createTicket', title: '屏幕闪烁' },
    ]);
  });

  it('keeps "and" inside a title instead of inventing a second request', () => {
    expect(understand('remind me to call mom and dad').requests).toEqual([
      { intent: 'addTodo', title: 'call mom and dad' },
    ]);
  });

  it('leaves the title empty when a request only says there is a problem', () => {
    expect(understand('I’d like to report a problem').requests).toEqual([
      { intent: 'createTicket', title: '' },
    ]);
    expect(understand('我想反馈个问题').requests).toEqual([{ intent: 'createTicket', title: '' }]);
  });

  it('asks for nothing on thanks, greetings and bare statements', () => {
    for (const text of ['thanks a lot', '谢谢啦', 'the fridge is noisy']) {
      expect(understand(text).requests).toEqual([]);
    }
    expect(understand('hi there, what can you do?').intent).toBe('greeting');
  });
});

describe('parseToolCommand', () => {
  it('reads a tool name and its JSON input', () => {
    expect(parseToolCommand('/tool getOrderStatus {"orderId":"A1001"}')).toEqual({
      toolName: 'getOrderStatus',
      input: { orderId: 'A1001' },
    });
    expect(parseToolCommand('  /tool mail__send {"to":"a@b.c",\n"body":"hi"}')).toEqual({
      toolName: 'mail__send',
      input: { to: 'a@b.c', body: 'hi' },
    });
  });

  it('gives an empty input when none is written', () => {
    expect(parseToolCommand('/tool listTodos')).toEqual({ toolName: 'listTodos', input: {} });
  });

  it('refuses text that is not a command or whose input is not JSON', () => {
    expect(parseToolCommand('please /tool listTodos {}')).toBeUndefined();
    expect(parseToolCommand('/tool')).toBeUndefined();
    expect(parseToolCommand('/toolbox listTodos')).toBeUndefined();
    expect(parseToolCommand('/tool addTodo {title: buy milk}')).toBeUndefined();
  });
});

describe('understand, on strings of symbols', () => {
  it('reads no ticket or to-do from a greeting followed by symbols', () => {
    for (const text of ['hello j#MPA{#:to', 'hello f8|G!`:p>9', 'hello >":g^>@=y^', 'hello M*\\(`zF_8:']) {
      const writes = understand(text).requests.filter(
        (request) => request.intent === 'createTicket' || request.intent === 'addTodo',
      );
      expect(writes, text).toEqual([]);
    }
  });

  it('still reads a write whose title holds a few symbols', () => {
    expect(understand('add a todo: fix bug #123 in the login form').requests).toEqual([
      { intent: 'addTodo', title: 'fix bug #123 in the login form' },
    ]);
  });
});
