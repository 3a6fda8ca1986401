import type { Db } from './engine';
import { newestOwnedRows } from './newest-owned-rows';

/** A to-do item. */
export type Todo = {
  id: number;
  title: string;
  status: 'open' | 'done';
  createdAt: string;
};

type TodoRow = {
  id: number;
  title: string;
  status: 'open' | 'done';
  created_at: string;
  user_id: string | null;
};

function toTodo(row: TodoRow): Todo {
  return { id: row.id, title: row.title, status: row.status, createdAt: row.created_at };
}

/** Inserts an open to-do for `userId` and returns it. */
export async function insertTodo(
  db: Db,
  { title, userId }: { title: string; userId: string },
): Promise<Todo> {
  const row = await db
    .insertInto('todos')
    .values({ title, status: 'open', user_id: userId, created_at: new Date().toISOString() })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toTodo(row);
}

/** Deletes one of `userId`'s to-dos (its creation was undone); false when there is none. */
export async function deleteTodo(db: Db, { id, userId }: { id: number; userId: string }): Promise<boolean> {
  const result = await db
    .deleteFrom('todos')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** One user's to-dos, newest first; only open ones with `status: 'open'` (those a new to-do may repeat). */
export async function selectTodos(
  db: Db,
  {
    userId,
    status,
    limit = 100,
    beforeId,
  }: { userId: string; status?: 'open'; limit?: number; beforeId?: number },
): Promise<Todo[]> {
  const rows = await newestOwnedRows(db, 'todos', { userId, status, limit, beforeId });
  return rows.map(toTodo);
}
