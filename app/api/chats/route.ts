import { listOwnedChats } from '@/lib/chat/read-chat';
import { getOwnerId } from '@/lib/server/owner';

export const dynamic = 'force-dynamic';

/** This browser's chats, newest first. */
export async function GET() {
  return Response.json(listOwnedChats(await getOwnerId()));
}
