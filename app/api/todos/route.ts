import { getDb, selectTodos } from '@/lib/db';
import { withSession } from '@/lib/http/with-session';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';

export const dynamic = 'force-dynamic';

/** This user's to-dos, newest first. */
export const GET = withUnavailableAs503(
  withSession(async (_request, user) => Response.json(await selectTodos(await getDb(), { userId: user.id }))),
);
