import 'server-only';
import { type LanguageModel, safeValidateUIMessages, type UIMessage } from 'ai';
import { getChatModel } from '@/lib/ai/models';
import { routeWorker } from '@/lib/ai/router';
import { type AppConfig, getConfig } from '@/lib/config';
import { type Db, deleteChat, getChat, getChatMessages, getDb, saveChat, upsertMessage } from '@/lib/db';
import { waitForMcpServers, workerOfTool } from '@/lib/mcp/merge-mcp-tools';
import { buildWorkerTable, type WorkerTable } from '@/lib/turn-table/build-worker-table';
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
  db: Db;
  model: LanguageModel;
  /** How the page names the model answering. */
  modelLabel: string;
  worker: string;
  /** The worker's own tool table (its MCP tools included), before any shell. */
  table: WorkerTable;
  /** The stored history, ending with the new user message (as stored: approval state intact). */
  history: UIMessage[];
};

/**
 * Everything both chat endpoints do before the model runs: check that the chat
 * belongs to this owner, validate the new message, read the stored history (the
 * truth: nothing the client sends can rewrite it), pick the worker and build its
 * tool table. With `saveUserMessage` the new message is stored at once, so a
 * reload during the turn shows it. A chat created by another owner answers like
 * an unknown chat.
 */
export async function prepareChatTurn(
  { chatId, message, worker, ownerId }: ChatTurnRequest,
  { saveUserMessage = false }: { saveUserMessage?: boolean } = {},
): Promise<PreparedChatTurn | { rejection: ChatTurnRejection }> {
  const config = getConfig();
  const db = await getDb();
  const existing = await getChat(db, chatId);
  if (existing !== undefined && existing.ownerId !== ownerId) {
    return { rejection: { status: 404, error: 'Chat not found' } };
  }

  // A client's message may carry no approval state of its own: only the table decides.
  const validated = await safeValidateUIMessages({ messages: sanitizeUIMessages([message]) });
  if (!validated.success) {
    return { rejection: { status: 400, error: `message: ${firstLine(validated.error.message)}` } };
  }
  const newMessage = validated.data[0];
  const stored = existing === undefined ? [] : await getChatMessages(db, chatId);
  // Sending a stored message again (a retry) continues from it; what came after it stays stored.
  const resent = stored.findIndex((storedMessage) => storedMessage.id === newMessage.id);
  const history = [...(resent === -1 ? stored : stored.slice(0, resent)), newMessage];
  const text = lastUserText(history);
  if (text === '') return { rejection: { status: 400, error: 'The last message holds no text' } };

  const { model, label, kind } = getChatModel(config);
  // MCP tools are part of the tables the router and the worker see.
  await waitForMcpServers();
  const chosenWorker =
    worker === undefined || worker === 'auto'
      ? await routeWorker({
          text,
          messages: history,
          model: kind === 'offline' ? undefined : model,
          workerOfTool,
        })
      : worker;
  const table = buildWorkerTable(db, chosenWorker, { chatId, ownerId }, config);

  await saveChat(db, {
    id: chatId,
    ownerId: existing?.ownerId ?? ownerId,
    title: existing?.title ?? text.slice(0, 80),
    worker: chosenWorker,
  });
  if (saveUserMessage) {
    try {
      await upsertMessage(db, chatId, newMessage);
    } catch (error) {
      // A turn that never started leaves no empty chat behind.
      if (existing === undefined) await deleteChat(db, chatId).catch(() => undefined);
      throw error;
    }
  }

  return {
    config,
    db,
    model,
    modelLabel: label,
    worker: chosenWorker,
    table,
    history,
  };
}
