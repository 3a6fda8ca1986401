import { replyText, textField } from './text-field';
import { defineToolFacts } from './tool-facts';

/** What the product says about `addTodo` (client-safe; the tool itself is `add-todo.ts`). */
export const addTodoFacts = defineToolFacts({
  name: 'addTodo',
  workers: ['assistant'],
  kind: 'write',
  // The app's own rows: trusted as a source of values for writes.
  trust: 'trusted',
  summarize: (input, language) => {
    const title = textField(input, 'title');
    return language === 'zh' ? `添加待办「${title}」` : `Add to-do “${title}”`;
  },
  summarizeResult: (output, language) => {
    const title = textField(output, 'title');
    return language === 'zh' ? `已添加待办「${title}」` : `Added to-do “${title}”`;
  },
  fieldLabels: { title: { en: 'To-do', zh: '待办内容' } },
  capability: {
    action: { zh: '添加待办', en: 'add a to-do' },
    example: { zh: '加一个待办：买牛奶', en: 'add a todo: buy milk' },
  },
  offline: {
    intent: 'addTodo',
    argument: {
      field: 'title',
      question: {
        zh: '要添加待办，请告诉我具体内容：待办写什么？',
        en: 'What should the to-do say?',
      },
    },
    reply: (output, language) =>
      language === 'zh'
        ? `已添加待办：${replyText(output.title)}。`
        : `Added to your to-dos: ${replyText(output.title)}.`,
  },
});
