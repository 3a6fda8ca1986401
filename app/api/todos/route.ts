import { getDb, listTodos } from '@/lib/db';

export const dynamic = 'force-dynamic';

/** Every todo, newest first. */
export function GET() {
  return Response.json(listTodos(getDb()));
}
