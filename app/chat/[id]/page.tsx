import { approveToolCall } from '@/app/actions/approval';
import { ChatShell } from '@/components/chat-shell';

/** A chat by id. Nothing is loaded here: the client fetches the chat's messages from `/api/chats/[id]`. */
export default async function ChatPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ChatShell id={id} isNew={false} approve={approveToolCall} />;
}
