import { tool } from 'ai';
import { z } from 'zod';
import type { Db } from '@/lib/db/engine';
import { selectTodos } from '@/lib/db/todos';
import { listTodosFacts } from './list-todos-facts';
import type { ToolContext } from './tool-context';
import { defineTool } from './tool-descriptor';

/** What a `listTodos` call takes; its messages and descriptions are written for the model. */
const listTodosInput = z.object({});

/** Builds `listTodos`: read-only listing of the to-do list, newest first. */
export function createListTodosTool(db: Db, { userId }: ToolContext) {
  return tool({
    description:
      'List the user’s to-dos, newest first. Call it when the user asks to see, list or check their to-dos (also right after adding one, if they asked for the list too). ' +
      'Takes no input. Do not call it to add an item.',
    inputSchema: listTodosInput,
    execute: async () => ({
      todos: (await selectTodos(db, { userId, limit: 50 })).map(({ id, title, status, createdAt }) => ({
        id,
        title,
        status,
        createdAt,
      })),
    }),
  });
}

/** `listTodos`, declared once: its facts and its factory. */
export const listTodosTool = defineTool(listTodosFacts, {
  inputSchema: listTodosInput,
  create: createListTodosTool,
});
