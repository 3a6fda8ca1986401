import type { NextRequest } from 'next/server';
import { withSession } from '@/lib/auth/with-session';
import { listOwnedChats } from '@/lib/chat/read-chat';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';

export const dynamic = 'force-dynamic';

/** This user's chats, newest first. */
export const GET = withUnavailableAs503(
  withSession(async (_request: NextRequest, user) => Response.json(await listOwnedChats(user.id))),
);
