import { withSession } from '@/lib/auth/with-session';
import { getDb, selectTodos } from '@/lib/db';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';

export const dynamic = 'force-dynamic';

/** This user's to-dos, newest first. */
export const GET = withUnavailableAs503(
  withSession(async (_request, user) => Response.json(await selectTodos(await getDb(), { userId: user.id }))),
);
