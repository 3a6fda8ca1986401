import type { ToolName } from '@/lib/config';
import type { Language } from './language';

type Localized = Record<Language, string>;

/** What each tool does and an example request, in both languages, for help texts. */
export const toolCapabilities: Record<ToolName, { action: Localized; example: Localized }> = {
  getOrderStatus: {
    action: { zh: '查询订单状态', en: 'look up an order’s status' },
    example: { zh: '查询订单 A1001', en: 'where is my order A1001' },
  },
  createTicket: {
    action: { zh: '创建客服工单', en: 'open a support ticket' },
    example: { zh: '帮我创建一个工单：耳机坏了', en: 'create a ticket: my headphones are broken' },
  },
  searchKnowledgeBase: {
    action: {
      zh: '搜索帮助中心（退货、退款、运费、保修等）',
      en: 'search the help centre (returns, refunds, shipping, warranty…)',
    },
    example: { zh: '退货政策是什么', en: 'what is your return policy' },
  },
  addTodo: {
    action: { zh: '添加待办', en: 'add a to-do' },
    example: { zh: '加一个待办：买牛奶', en: 'add a todo: buy milk' },
  },
  listTodos: {
    action: { zh: '列出你的待办', en: 'list your to-dos' },
    example: { zh: '列出我的待办', en: 'list my todos' },
  },
};

const isToolName = (name: string): name is ToolName => Object.hasOwn(toolCapabilities, name);

/**
 * A markdown list of what these tools let the assistant do, each with the tool's name and
 * an example request. Unknown names are skipped; no known tool gives a sentence saying so.
 */
export function describeCapabilities(toolNames: Iterable<string>, language: Language): string {
  const lines = [...toolNames].filter(isToolName).map((name) => {
    const { action, example } = toolCapabilities[name];
    return language === 'zh'
      ? `- ${action.zh}（${name}），例如「${example.zh}」`
      : `- ${action.en} (${name}), e.g. “${example.en}”`;
  });
  if (lines.length === 0) {
    return language === 'zh'
      ? '这里没有可用的工具，我只能回答一般的问题。'
      : 'I have no tools here, so I can only chat.';
  }
  return `${language === 'zh' ? '我可以：' : 'I can:'}\n\n${lines.join('\n')}`;
}
