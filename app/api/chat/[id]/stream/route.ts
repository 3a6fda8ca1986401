import { UI_MESSAGE_STREAM_HEADERS } from 'ai';
import type { NextRequest } from 'next/server';
import { withSession } from '@/lib/auth/with-session';
import { resumeChatStream } from '@/lib/chat/resume-chat-stream';
import { jsonError } from '@/lib/http/json';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';
import { endsAtShutdown } from '@/lib/server/shutdown';

/** Resume (`useChat({ resume: true })`): 200 with the running turn's stream from its start, 204 when none runs. */
export const GET = withUnavailableAs503(
  withSession(async (_request: NextRequest, user, { params }: { params: Promise<{ id: string }> }) => {
    const { id } = await params;
    const stream = await resumeChatStream({ chatId: id, ownerId: user.id });
    if (stream === undefined) return jsonError(404, 'Chat not found');
    if (stream === null) return new Response(null, { status: 204 });
    return new Response(endsAtShutdown(stream.pipeThrough(new TextEncoderStream())), {
      headers: UI_MESSAGE_STREAM_HEADERS,
    });
  }),
);
