import type { Language } from '@/lib/shared/language';
import { listLength, recordsIn, replyText } from './text-field';
import { defineToolFacts } from './tool-facts';

/** What the product says about `listTodos` (client-safe; the tool itself is `list-todos.ts`). */
export const listTodosFacts = defineToolFacts({
  name: 'listTodos',
  workers: ['assistant'],
  kind: 'read',
  // The app's own rows: trusted as a source of values for writes.
  trust: 'trusted',
  summarize: (_input, language) => (language === 'zh' ? '列出待办' : 'List your to-dos'),
  summarizeResult: (output, language) => {
    const count = listLength(output, 'todos');
    if (language === 'zh') return count === 0 ? '没有待办' : `${count} 条待办`;
    if (count === 0) return 'No to-dos';
    return count === 1 ? '1 to-do' : `${count} to-dos`;
  },
  fieldLabels: {},
  capability: {
    action: { zh: '列出你的待办', en: 'list your to-dos' },
    example: { zh: '列出我的待办', en: 'list my todos' },
  },
  offline: {
    intent: 'listTodos',
    quote: (_argument, language) => (language === 'zh' ? '列出待办' : 'list my todos'),
    reply: todosReply,
  },
});

/** The offline model's answer from a listing: every to-do on a line, the done ones marked. */
function todosReply(output: Readonly<Record<string, unknown>>, language: Language): string {
  const todos = recordsIn(output, 'todos');
  if (todos.length === 0) return language === 'zh' ? '你的待办清单是空的。' : 'Your to-do list is empty.';
  const done = language === 'zh' ? '（已完成）' : ' (done)';
  const lines = todos.map((todo) => `- ${replyText(todo.title)}${todo.status === 'done' ? done : ''}`);
  return language === 'zh'
    ? `你的待办（共 ${todos.length} 项）：\n\n${lines.join('\n')}`
    : `Your to-dos (${todos.length}):\n\n${lines.join('\n')}`;
}
