import { tool } from 'ai';
import { z } from 'zod';
import type { Db } from '@/lib/db/engine';
import { deleteTodo, insertTodo, selectTodos } from '@/lib/db/todos';
import { addTodoFacts } from './add-todo-facts';
import { commitWrite } from './commit-write';
import { recentOpenItemsCompared, similarOpenItemsPreview } from './similar-title';
import type { ToolContext } from './tool-context';
import { defineTool, type ToolPreview } from './tool-descriptor';

/** What a `addTodo` call takes; its messages and descriptions are written for the model. */
const addTodoInput = z.object({
  title: z
    .string({ error: 'title is required: the to-do as one short sentence.' })
    .trim()
    .min(1, 'title is empty: ask the user what to add, then call again with the to-do text.')
    .max(200, 'title is longer than 200 characters: shorten it to one sentence.')
    .describe('The to-do as one short sentence, in the user’s words, e.g. "buy milk" or "买牛奶".'),
});

/** Builds `addTodo`: a write that adds one item to the user's to-do list. */
export function createAddTodoTool(db: Db, { userId }: ToolContext) {
  return tool({
    description:
      'Add one item to the user’s to-do list. Call it when the user says "add a todo …", "remind me to …", "加一个待办 …" or "记一下 …". ' +
      'Do not call it when the user only asks to see the list (use the list tool), and add each item once: do not repeat a call that succeeded.',
    inputSchema: addTodoInput,
    // The to-do and the record of this result commit together: a repeat replays it.
    execute: ({ title }, options) =>
      commitWrite(db, options, async (transaction) => {
        const todo = await insertTodo(transaction, { title, userId });
        return { id: todo.id, title: todo.title, status: todo.status };
      }),
  });
}

/** What the card warns of: an open to-do of this user with the same or a similar title. */
async function previewTodo(
  db: Db,
  { title }: z.output<typeof addTodoInput>,
  { userId }: ToolContext,
): Promise<ToolPreview> {
  const open = await selectTodos(db, { userId, status: 'open', limit: recentOpenItemsCompared });
  return similarOpenItemsPreview(title, open, (todo) => ({
    en: `Already on your open to-dos: “${todo.title}”.`,
    zh: `你的待办里已有相近的一项：「${todo.title}」。`,
  }));
}

/** `addTodo`, declared once: its facts, its factory and its preview. */
export const addTodoTool = defineTool(addTodoFacts, {
  inputSchema: addTodoInput,
  create: createAddTodoTool,
  preview: previewTodo,
  // Undone within the window, the to-do is removed.
  undo: async (db, output, { userId }) => {
    const { id } = output as { id: number };
    await deleteTodo(db, { id, userId });
  },
});
