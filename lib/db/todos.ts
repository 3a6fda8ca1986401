import type { Db } from './engine';

/** A to-do item. */
export type Todo = {
  id: number;
  title: string;
  status: 'open' | 'done';
  createdAt: string;
};

type TodoRow = { id: number; title: string; status: 'open' | 'done'; created_at: string };

function toTodo(row: TodoRow): Todo {
  return { id: row.id, title: row.title, status: row.status, createdAt: row.created_at };
}

/** Inserts an open to-do and returns it. */
export async function addTodo(db: Db, { title }: { title: string }): Promise<Todo> {
  const row = await db
    .insertInto('todos')
    .values({ title, status: 'open', created_at: new Date().toISOString() })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toTodo(row);
}

/** To-dos, newest first. */
export async function listTodos(db: Db, { limit = 100 }: { limit?: number } = {}): Promise<Todo[]> {
  const rows = await db.selectFrom('todos').selectAll().orderBy('id', 'desc').limit(limit).execute();
  return rows.map(toTodo);
}
