import { listLength } from './text-field';
import { defineToolFacts } from './tool-facts';

/** What the product says about `listTodos` (client-safe; the tool itself is `list-todos.ts`). */
export const listTodosFacts = defineToolFacts({
  name: 'listTodos',
  workers: ['assistant'],
  kind: 'read',
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
});
