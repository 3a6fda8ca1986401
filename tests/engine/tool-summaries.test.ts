import { describe, expect, it } from 'vitest';
import { toolNames as knownToolNames, writeToolNames } from '@/lib/tools/tool-catalog';
import { summarizeToolCall, summarizeToolResult } from '@/lib/tools/tool-summaries';

describe('summarizeToolResult', () => {
  it('says what an order lookup found, with the status in words', () => {
    const shipped = { found: true, orderId: 'A1001', status: 'shipped', carrier: 'SF Express', items: [] };
    expect(summarizeToolResult('getOrderStatus', shipped)).toEqual({
      en: 'Order A1001: shipped',
      zh: '订单 A1001：已发货',
    });
    expect(summarizeToolResult('getOrderStatus', { found: false, orderId: 'A1999' })).toEqual({
      en: 'Order A1999 not found',
      zh: '未找到订单 A1999',
    });
  });

  it('counts the articles a search found and the to-dos a listing returned', () => {
    const hits = (count: number) => ({
      hits: Array.from({ length: count }, (_, id) => ({ id, title: 't' })),
    });
    expect(summarizeToolResult('searchKnowledgeBase', hits(3))).toEqual({
      en: '3 articles found',
      zh: '找到 3 篇文章',
    });
    expect(summarizeToolResult('searchKnowledgeBase', hits(1))?.en).toBe('1 article found');
    expect(summarizeToolResult('searchKnowledgeBase', hits(0))).toEqual({
      en: 'No articles found',
      zh: '没有找到文章',
    });
    const todos = (count: number) => ({ todos: Array.from({ length: count }, (_, id) => ({ id })) });
    expect(summarizeToolResult('listTodos', todos(2))).toEqual({ en: '2 to-dos', zh: '2 条待办' });
    expect(summarizeToolResult('listTodos', todos(1))?.en).toBe('1 to-do');
    expect(summarizeToolResult('listTodos', todos(0))).toEqual({ en: 'No to-dos', zh: '没有待办' });
  });

  it('says what a write did', () => {
    expect(
      summarizeToolResult('createTicket', { ticketId: 'TK-000007', title: 'x', status: 'open' }),
    ).toEqual({
      en: 'Ticket TK-000007 opened',
      zh: '已创建工单 TK-000007',
    });
    expect(summarizeToolResult('addTodo', { id: 1, title: 'buy milk', status: 'open' })).toEqual({
      en: 'Added to-do “buy milk”',
      zh: '已添加待办「buy milk」',
    });
  });

  it('has a line for every built-in tool, reads included, and none for other names (MCP tools)', () => {
    for (const toolName of knownToolNames) expect(summarizeToolResult(toolName, {}), toolName).toBeDefined();
    expect(knownToolNames.some((toolName) => !writeToolNames.has(toolName))).toBe(true);
    expect(summarizeToolResult('notes__list_notes', { text: 'n1' })).toBeUndefined();
    expect(summarizeToolResult('__proto__', {})).toBeUndefined();
  });
});

describe('summarizeToolCall', () => {
  it('titles a read call too, in both languages', () => {
    expect(summarizeToolCall('getOrderStatus', { orderId: 'A1001' })).toEqual({
      en: 'Look up order A1001',
      zh: '查询订单 A1001',
    });
    expect(summarizeToolCall('listTodos', {})).toEqual({ en: 'List your to-dos', zh: '列出待办' });
  });
});
