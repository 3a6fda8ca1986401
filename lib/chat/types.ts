import type { UIMessage } from 'ai';

/** One user turn as the routes hand it to lib/chat (already validated). */
export type ChatTurnRequest = {
  /** The chat id (the body's `id`); the turn's shells use it as their scope and session. */
  chatId: string;
  /** The new user message; the history is the one stored for the chat. */
  message: UIMessage;
  /** A pinned worker (built-in or added by an MCP server), or `auto` / absent to let the router pick. */
  worker?: string;
  /** The signed-in (or guest) user who sent it, from the session: the chat's owner. */
  ownerId: string;
  /** The request's abort signal: only the non-streaming endpoint uses it (a streaming turn is detached). */
  signal?: AbortSignal;
};

/** A turn refused before it started; the route maps it to a JSON error. */
export type ChatTurnRejection = { status: number; error: string };

/** What the assistant message carries besides its parts. */
export type ChatMessageMetadata = { worker: string; model: string };
