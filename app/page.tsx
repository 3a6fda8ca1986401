import { randomUUID } from 'node:crypto';
import { connection } from 'next/server';
import { ChatShell } from '@/components/chat-shell';
import { requirePageUser } from '@/lib/auth/require-page-user';

/** `/` always starts a new chat; it takes the address `/chat/[id]` once the first message is sent. */
export default async function HomePage() {
  // A fresh id per request: without this the page would be prerendered with one id for everyone.
  await connection();
  const { email, isAnonymous, isAdmin, roles } = await requirePageUser('/');
  return (
    <ChatShell
      id={randomUUID()}
      isNew
      account={{ email, isAnonymous, isAdmin, isApprover: roles.length > 0 }}
    />
  );
}
