import type { SqliteDatabase } from './open-database';
import { statement } from './statement';

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
export function addTodo(db: SqliteDatabase, { title }: { title: string }): Todo {
  const row = statement<[string, string], TodoRow>(
    db,
    "INSERT INTO todos (title, status, created_at) VALUES (?, 'open', ?) RETURNING *",
  ).get(title, new Date().toISOString());
  if (row === undefined) throw new Error('Inserting a todo returned no row');
  return toTodo(row);
}

/** To-dos, newest first. */
export function listTodos(db: SqliteDatabase, { limit = 100 }: { limit?: number } = {}): Todo[] {
  return statement<[number], TodoRow>(db, 'SELECT * FROM todos ORDER BY id DESC LIMIT ?')
    .all(limit)
    .map(toTodo);
}
