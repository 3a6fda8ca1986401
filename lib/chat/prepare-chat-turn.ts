import 'server-only';
import { type LanguageModel, safeValidateUIMessages, type ToolSet, type UIMessage } from 'ai';
import { getChatModel } from '@/lib/ai/models';
import { routeWorker } from '@/lib/ai/router';
import { type AppConfig, getConfig } from '@/lib/config';
import { getChat, getDb, type SqliteDatabase, saveChat } from '@/lib/db';
import { createWorkerTools, type WorkerName } from '@/lib/tools';
import { sanitizeUIMessages } from './sanitize-ui-messages';
import type { ChatTurnRejection, ChatTurnRequest } from './types';

function firstLine(text: string): string {
  return text.split('\n')[0]?.slice(0, 300) ?? text;
}

/** The text the user typed in the last message. */
export function lastUserText(messages: UIMessage[]): string {
  const last = messages.findLast((message) => message.role === 'user');
  if (last === undefined) return '';
  return last.parts
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('\n')
    .trim();
}

/** What a turn needs once it is allowed to run. */
export type PreparedChatTurn = {
  config: AppConfig;
  db: SqliteDatabase;
  model: LanguageModel;
  /** How the page names the model answering. */
  modelLabel: string;
  worker: WorkerName;
  /** The worker's own tool table, before any shell. */
  baseTools: ToolSet;
  /** The client's history with untrusted approval state stripped, validated by the SDK. */
  history: UIMessage[];
};

/**
 * Everything both chat endpoints do before the model runs: check that the chat
 * belongs to this browser, pick the worker, build its tool table and clean the
 * history. A chat created by another owner answers like an unknown chat.
 */
export async function prepareChatTurn({
  id,
  messages,
  worker,
  ownerId,
}: ChatTurnRequest): Promise<PreparedChatTurn | { rejection: ChatTurnRejection }> {
  const config = getConfig();
  const db = getDb();
  const existing = getChat(db, id);
  if (existing !== undefined && existing.ownerId != null && existing.ownerId !== ownerId) {
    return { rejection: { status: 404, error: 'Chat not found' } };
  }

  // Strip untrusted approval state first: the SDK's own check rejects the parts our
  // approval flow leaves behind on the client (approval without `approved`).
  const validated = await safeValidateUIMessages({ messages: sanitizeUIMessages(messages) });
  if (!validated.success) {
    return { rejection: { status: 400, error: `messages: ${firstLine(validated.error.message)}` } };
  }
  const history = validated.data;
  const text = lastUserText(history);
  if (text === '') return { rejection: { status: 400, error: 'The last message holds no text' } };

  const { model, label, kind } = getChatModel(config);
  const chosenWorker: WorkerName =
    worker === undefined || worker === 'auto'
      ? await routeWorker({ text, messages: history, model: kind === 'offline' ? undefined : model })
      : worker;

  saveChat(db, {
    id,
    ownerId: existing?.ownerId ?? ownerId ?? null,
    title: existing?.title ?? text.slice(0, 80),
    worker: chosenWorker,
  });

  return {
    config,
    db,
    model,
    modelLabel: label,
    worker: chosenWorker,
    baseTools: createWorkerTools(chosenWorker, db, { chatId: id }),
    history,
  };
}
