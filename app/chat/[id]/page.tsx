import { ChatShell } from '@/components/chat-shell';
import { requirePageUser } from '@/lib/auth/require-page-user';

/** A chat by id. Nothing is loaded here: the client fetches the chat's messages from `/api/chats/[id]`. */
export default async function ChatPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { email, isAnonymous, isAdmin, roles } = await requirePageUser(`/chat/${encodeURIComponent(id)}`);
  return (
    <ChatShell
      id={id}
      isNew={false}
      account={{ email, isAnonymous, isAdmin, isApprover: roles.length > 0 }}
    />
  );
}
