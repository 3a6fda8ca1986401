import 'server-only';
import { generateId, UI_MESSAGE_STREAM_HEADERS } from 'ai';
import { getChatModel } from '@/lib/ai/models';
import { answerOpenQuestions, listWaitingRequests } from '@/lib/approvals';
import { getApprovalRegistry } from '@/lib/server/stores';
import { settleChatForNewMessage } from './end-chat-approvals';
import { lastUserText, prepareChatTurn } from './prepare-chat-turn';
import { runChatTurn } from './run-chat-turn';
import type { ChatTurnRejection, ChatTurnRequest } from './types';

/**
 * Runs one streaming chat turn and answers the AI SDK UI message stream.
 *
 * The turn is detached from this request: a client that goes away is not a
 * decision (it can resume with `GET /api/chat/:id/stream`). A listed tool
 * suspends inside the turn: its approval request is written to the stream as a
 * native `tool-approval-request` chunk, saved, and the same stream continues
 * with the output (or the denial) once a person decides, the deadline passes,
 * the user stops the turn or sends a new message (a call that waits for someone else's step
 * goes on waiting: the model is told of it, and may withdraw it when the person asks; a message
 * after an approver's question about it is the answer, passed to the approver).
 */
export async function streamChatTurn(request: ChatTurnRequest): Promise<Response | ChatTurnRejection> {
  const turn = await prepareChatTurn(request, { saveUserMessage: true });
  if ('rejection' in turn) return turn.rejection;
  // A card waiting for this person is answered by the new message ("never mind" denies it, anything
  // else supersedes it); a request waiting for someone else goes on waiting, and the model is told of it.
  const text = lastUserText(turn.history);
  const ended = await settleChatForNewMessage(turn.db, getApprovalRegistry(), {
    chatId: request.chatId,
    ownerId: request.ownerId,
    text,
  });
  // A question an approver asked about a waiting request is answered by this message: it is
  // stored against the question and shown to the approver, and the model is told it is an answer.
  const answered = await answerOpenQuestions(turn.db, {
    chatId: request.chatId,
    ownerId: request.ownerId,
    text,
  });
  const waiting = await listWaitingRequests(turn.db, request.chatId);
  const stream = await runChatTurn({
    ...turn,
    chatId: request.chatId,
    ownerId: request.ownerId,
    modelLabel: turn.modelLabel ?? getChatModel(turn.config).label,
    messageId: generateId(),
    baseParts: -1,
    followed: true,
    conversation: { waiting, ended, answered },
  });
  return new Response(stream.pipeThrough(new TextEncoderStream()), { headers: UI_MESSAGE_STREAM_HEADERS });
}
