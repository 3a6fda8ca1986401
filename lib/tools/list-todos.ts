import { tool } from 'ai';
import { z } from 'zod';
import type { Language } from '@/lib/ai/language';
import type { Db } from '@/lib/db/engine';
import { listTodos } from '@/lib/db/todos';
import type { ToolContext } from './tool-context';

/** One line saying what a `listTodos` call will do, for the card title. */
export function summarizeListTodos(_input: unknown, language: Language): string {
  return language === 'zh' ? '列出待办' : 'List your to-dos';
}

/** Builds `listTodos`: read-only listing of the to-do list, newest first. */
export function createListTodosTool(db: Db, { userId }: ToolContext) {
  return tool({
    description:
      'List the user’s to-dos, newest first. Call it when the user asks to see, list or check their to-dos (also right after adding one, if they asked for the list too). ' +
      'Takes no input. Do not call it to add an item.',
    inputSchema: z.object({}),
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
