import type { NextRequest } from 'next/server';
import { listOwnedChats } from '@/lib/chat/read-chat';
import { ownerIdFromRequest } from '@/lib/server/owner';

export const dynamic = 'force-dynamic';

/** This browser's chats, newest first. */
export function GET(request: NextRequest) {
  return Response.json(listOwnedChats(ownerIdFromRequest(request)));
}
