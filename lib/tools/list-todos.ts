import { tool } from 'ai';
import { z } from 'zod';
import type { Language } from '@/lib/ai/language';
import type { Db } from '@/lib/db/engine';
import { listTodos } from '@/lib/db/todos';
import type { FieldLabels } from './field-labels';
import { listLength } from './text-field';
import type { ToolContext } from './tool-context';

/** One line saying what a `listTodos` call will do, for the card title. */
export function summarizeListTodos(_input: unknown, language: Language): string {
  return language === 'zh' ? '列出待办' : 'List your to-dos';
}

/** One line saying what a `listTodos` call found, for its folded part. */
export function summarizeListTodosResult(output: unknown, language: Language): string {
  const count = listLength(output, 'todos');
  if (language === 'zh') return count === 0 ? '没有待办' : `${count} 条待办`;
  if (count === 0) return 'No to-dos';
  return count === 1 ? '1 to-do' : `${count} to-dos`;
}

/** What a `listTodos` call takes; its messages and descriptions are written for the model. */
const listTodosInput = z.object({});

/** The edit form's label of each `listTodos` field. */
export const listTodosFieldLabels: FieldLabels<typeof listTodosInput> = {};

/** Builds `listTodos`: read-only listing of the to-do list, newest first. */
export function createListTodosTool(db: Db, { userId }: ToolContext) {
  return tool({
    description:
      'List the user’s to-dos, newest first. Call it when the user asks to see, list or check their to-dos (also right after adding one, if they asked for the list too). ' +
      'Takes no input. Do not call it to add an item.',
    inputSchema: listTodosInput,
    execute: async () => ({
      todos: (await listTodos(db, { userId, limit: 50 })).map(({ id, title, status, createdAt }) => ({
        id,
        title,
        status,
        createdAt,
      })),
    }),
  });
}
