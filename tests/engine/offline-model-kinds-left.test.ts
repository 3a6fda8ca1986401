import { describe, expect, it } from 'vitest';
import { type MadeCall, runMessage } from '../support/grade-offline-model';

/*
 * The kinds of message the offline model still missed after its fourth round: a question beside a
 * refused refund, a person asked for beside an order, hurried or angry words around a request,
 * an aside before a colon, and corrections that name only the day or time that changes.
 */
const shape = (calls: readonly MadeCall[]) => calls.map((call) => ({ tool: call.toolName, ...call.input }));
const titleOf = async (text: string) => {
  const { calls } = await runMessage(text);
  expect(calls.map((call) => call.toolName)).toHaveLength(1);
  return String(calls[0]?.input.title);
};

describe('a question beside a refused refund', () => {
  it.each([
    ["I don't want a refund, I just need to know when A1001 will ship", 'A1001'],
    ['not after a refund - has A1002 been dispatched yet?', 'A1002'],
  ])('%s only looks the order up', async (text, orderId) => {
    expect(shape((await runMessage(text)).calls)).toEqual([{ tool: 'getOrderStatus', orderId }]);
  });
});

describe('a person asked for beside an order', () => {
  it.each(['A1003 is a week late, I want to speak to a human', 'A1005 还没到，转人工'])(
    '%s looks nothing up and offers a ticket',
    async (text) => {
      const { calls, reply } = await runMessage(text);
      expect(calls).toEqual([]);
      expect(reply).toMatch(/ticket|工单/u);
    },
  );
});

describe('words around a request are no part of its title', () => {
  it('a hurried sign-off after the title', async () => {
    const title = await titleOf('remind me to book the vet tonight!! dog barking brb');
    expect(title).toContain('book the vet');
    expect(title).not.toMatch(/brb|barking/u);
  });

  it('a hurried opener before the problem', async () => {
    const title = await titleOf(
      'sorry in a rush - the heater from A1006 keeps clicking, please open a ticket',
    );
    expect(title).toContain('heater');
    expect(title).not.toMatch(/sorry|rush/u);
  });

  it('an aside before the colon', async () => {
    const title = await titleOf('在排队 长话短说：A1003 的台灯不亮了，帮我开个工单');
    expect(title).toContain('台灯不亮');
    expect(title).not.toMatch(/排队|长话短说/u);
  });

  it('anger and urgency beside the request', async () => {
    const title = await titleOf('气死了，A1004 的洗碗机漏水，赶紧给我开工单！');
    expect(title).toContain('洗碗机漏水');
    expect(title).not.toMatch(/气死了|赶紧/u);
  });
});

describe('a correction that names only the day or time that changes', () => {
  it.each([
    ['记一下周三交作业，哦不对，是周四', '周四', '周三'],
    ['remind me to call mum on friday, no wait, saturday', 'saturday', 'friday'],
    ['提醒我五点取快递，不对，是六点', '六点', '五点'],
  ])('%s keeps %s, not %s', async (text, kept, corrected) => {
    const title = await titleOf(text);
    expect(title).toContain(kept);
    expect(title).not.toContain(corrected);
    expect(title).not.toMatch(/\bno\b|不对/u);
  });
});

describe('a pasted order line with its total', () => {
  it.each([
    ['Order A1006 Total $89.00\nlamp arrived bent, refund 20', 'A1006', 20],
    ['订单 A1003 合计 ¥150\n少发了一件，退我 40 元', 'A1003', 40],
    ['Order A1002 Total $45.00\nthe mug is chipped, refund 10, no wait, 15', 'A1002', 15],
  ])('%s refunds what the person asked, never the total', async (text, orderId, amount) => {
    const refunds = (await runMessage(text)).calls.filter((call) => call.toolName === 'issueRefund');
    expect(refunds.map((call) => [call.input.orderId, call.input.amount])).toEqual([[orderId, amount]]);
  });
});

describe('a reminder asked for with no "to" before its task', () => {
  it.each([
    ['remind me fetch bread after work', 'fetch bread'],
    ['remind me phone the bank this afternoon', 'phone the bank'],
  ])('%s is titled from its task', async (text, task) => {
    const title = await titleOf(text);
    expect(title).toContain(task);
    expect(title).not.toMatch(/remind/u);
  });
});
