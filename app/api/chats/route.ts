import type { NextRequest } from 'next/server';
import { listOwnedChats } from '@/lib/chat/read-chat';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';
import { ownerIdFromRequest } from '@/lib/server/owner';

export const dynamic = 'force-dynamic';

/** This browser's chats, newest first. */
export const GET = withUnavailableAs503(async (request: NextRequest) => {
  return Response.json(await listOwnedChats(ownerIdFromRequest(request)));
});
