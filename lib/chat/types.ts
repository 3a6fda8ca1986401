import type { UIMessage } from 'ai';
import type { WorkerName } from '@/lib/tools';

/** One user turn as the routes hand it to lib/chat (already validated). */
export type ChatTurnRequest = {
  /** The chat id; also the idempotency scope and the approval session. */
  id: string;
  /** The new user message; the history is the one stored for the chat. */
  message: UIMessage;
  /** A pinned worker, or `auto` / absent to let the router pick. */
  worker?: WorkerName | 'auto';
  /** Who owns the chat and may decide its approvals. */
  ownerId?: string;
  /** The request's abort signal: only the non-streaming endpoint uses it (a streaming turn is detached). */
  signal?: AbortSignal;
};

/** A turn refused before it started; the route maps it to a JSON error. */
export type ChatTurnRejection = { status: number; error: string };

/** What the assistant message carries besides its parts. */
export type ChatMessageMetadata = { worker: WorkerName; model: string };
