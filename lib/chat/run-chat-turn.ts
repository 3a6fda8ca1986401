import 'server-only';
import { ProvenanceLedger, publicErrorText, reportError } from '@toolgate/engine';
import {
  generateId,
  JsonToSseTransformStream,
  type LanguageModel,
  readUIMessageStream,
  streamText,
  type ToolSet,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import {
  type AnsweredQuestionFact,
  type EndedCardFact,
  type WaitingRequestFact,
  waitingRequestsInstructions,
  withdrawRequestToolName,
} from '@/lib/ai/waiting-requests-block';
import { createTurnApprovals, settleToolParts, type TurnApprovals } from '@/lib/approvals';
import { chatMarkOf } from '@/lib/chats/chat-mark';
import type { AppConfig } from '@/lib/config';
import { clearChatStream, type Db, newestUserMessageId, setChatStream, upsertMessage } from '@/lib/db';
import { trustOfTool } from '@/lib/mcp/merge-mcp-tools';
import { getEffectRecorder } from '@/lib/server/effect-recorder';
import { getToolRateLimiter } from '@/lib/server/rate-limiter';
import { getIdempotencyStore } from '@/lib/server/stores';
import { startTurnTelemetry, type TurnTelemetry } from '@/lib/telemetry/turn-telemetry';
import { assembleTurnTools } from '@/lib/turn-table/assemble-turn-tools';
import type { WorkerTable } from '@/lib/turn-table/build-worker-table';
import { createAuditWriter } from '@/lib/turn-table/create-audit-writer';
import { keepUndoneMarks } from '@/lib/undo/undo-tool-call';
import { listenForRemoteStops, publishTurnEnded } from './remote-turn-stops';
import { turnModelCall } from './turn-model-call';
import { createTurnSideChannel, type TurnSideChannel } from './turn-side-channel';
import { followTurn, getStreamContext, runningTurns } from './turn-streams';
import type { ChatMessageMetadata } from './types';
import { withdrawRequestTool } from './withdraw-request-tool';

/** Everything a turn needs to run, whether it answers a new message or continues after a decision. */
export type ChatTurnStart = {
  db: Db;
  config: AppConfig;
  chatId: string;
  /** The user who owns the chat: their tool budget, idempotency window and audit rows. */
  ownerId: string;
  /** A built-in worker or one an MCP server adds. */
  worker: string;
  model: LanguageModel;
  modelLabel: string;
  /** The worker's table (`buildWorkerTable`), before any shell. */
  table: WorkerTable;
  /** The stored history: ends with the new user message, or with the assistant message to continue. */
  history: UIMessage[];
  /** The assistant message this turn builds (or continues). */
  messageId: string;
  /** Parts that message already had when this stream began; -1 when the stream starts it. */
  baseParts: number;
  /** Chunks written before the model's own (a continuation's decision and the tool's output). */
  prelude?: UIMessageChunk[];
  /** The returned stream goes to a client: it counts as a reader while read (see `followTurn`). */
  followed?: boolean;
  /**
   * What the model is told beyond the history (a new message's turn only): the chat's requests
   * that wait for someone else, which it may withdraw, and the cards the new message ended.
   */
  conversation?: {
    waiting: readonly WaitingRequestFact[];
    ended: readonly EndedCardFact[];
    /** Approvers' questions the new message answered: it is an answer, not a new request. */
    answered?: readonly AnsweredQuestionFact[];
  };
};

/**
 * Runs a chat turn detached from any request and returns its stream (SSE text).
 *
 * Nothing a client does to its connection reaches the model or the shells: the
 * turn ends by itself, by Stop (`runningTurns().get(chatId).abort`), or, for a
 * call waiting for approval, by a decision, the deadline, a new message or
 * deleting the chat. The stream is resumable (`GET /api/chat/:id/stream`) from
 * its start until the turn ends; when an approval is requested, the message so
 * far is saved; when the turn ends, the message is saved settled.
 *
 * A turn whose cards wait while nobody follows its stream is parked (see
 * `turn-parking.ts`): the message so far is saved and the model loop ends; a
 * decision continues it from the database. Readers are counted by `followTurn`.
 */
export async function runChatTurn(start: ChatTurnStart): Promise<ReadableStream<string>> {
  listenForRemoteStops();
  if (start.config.TOOLGATE_PROVENANCE === 'on') await markAttachedFiles(start);
  const turn = beginTurn(start);
  const tools = hardenTools(start, turn);
  const chunks = await streamModel(start, turn, tools);
  return publishTurn(start, turn, chunks);
}

/** What the steps of one turn share. */
type Turn = {
  abort: AbortController;
  /** A continuation took this turn over: its message is the one that counts. */
  takenOver: boolean;
  /** Saves of one message happen in order: the card's save never lands after the final one. */
  save: (message: UIMessage) => Promise<unknown>;
  /** The last save queued. */
  saving: () => Promise<unknown>;
  telemetry: TurnTelemetry;
  auditWriter: ReturnType<typeof createAuditWriter>;
  /** Labels each output's trust and carries the cards and replay marks; absent for an empty table. */
  sideChannel: TurnSideChannel | undefined;
  /** Absent when no call of this turn can wait for a person. */
  approvals: TurnApprovals | undefined;
  /** Whether this turn keeps a provenance ledger (provenance on, and something could be tainted). */
  traced: boolean;
  /** Write calls whose values are traced to their sources. */
  tracedWrites: ReadonlySet<string>;
  /** Settles when the model's stream has ended and its message is saved. */
  ended: Promise<void>;
};

/** The turn's side channel, its approvals, its saves and its telemetry. */
function beginTurn(start: ChatTurnStart): Turn {
  const { db, config, chatId, ownerId, worker, modelLabel, table, history, messageId } = start;
  const { tools: baseTools, confirmTools, writeTools } = table;
  let saving: Promise<unknown> = Promise.resolve();
  const save = (message: UIMessage) => {
    saving = saving.then(() => upsertMessage(db, chatId, message)).catch(() => undefined);
    return saving;
  };
  const continued = history.at(-1)?.role === 'assistant' ? history.at(-1) : undefined;
  const telemetry = startTurnTelemetry({
    name: 'toolgate.turn',
    chatId,
    worker,
    kind: start.prelude === undefined ? 'stream' : 'continuation',
    model: modelLabel,
  });

  const inTable = (name: string) => Object.hasOwn(baseTools, name);
  // Every write call's values are traced to their sources unless provenance is off, or nothing
  // the model reads this turn can be an outsider's (no untrusted output or file in the chat, no
  // untrusted tool in the table); a tainted one waits for a person even where no setting asks.
  const traced =
    config.TOOLGATE_PROVENANCE === 'on' &&
    ProvenanceLedger.couldTaint(history, Object.keys(baseTools), trustOfTool);
  const tracedWrites = new Set(traced ? [...writeTools].filter(inTable) : []);
  const asksPeople = confirmTools.size > 0 || tracedWrites.size > 0;
  const turn: Turn = {
    abort: new AbortController(),
    takenOver: false,
    save,
    saving: () => saving,
    telemetry,
    auditWriter: createAuditWriter(db, ownerId),
    sideChannel: undefined,
    approvals: undefined,
    traced,
    tracedWrites,
    ended: Promise.resolve(),
  };
  // Whenever the table holds a tool: it labels each output's trust on the saved part, and
  // carries the cards and replay marks.
  const sideChannel =
    Object.keys(baseTools).length > 0
      ? createTurnSideChannel({
          timeoutMs: config.AGENT_CONFIRM_TIMEOUT_MS,
          trustOf: trustOfTool,
          onApprovalShown: asksPeople
            ? (chunks) => {
                const snapshot = [...chunks];
                const cards = snapshot.filter((chunk) => chunk.type === 'tool-approval-request').length;
                void messageFromChunks(snapshot, continued)
                  .then((message) => message && save(message))
                  .then(() => turn.approvals?.parking.cardsSaved(cards));
              }
            : undefined,
        })
      : undefined;
  turn.sideChannel = sideChannel;
  turn.approvals =
    sideChannel && asksPeople
      ? createTurnApprovals({
          db,
          config,
          chatId,
          ownerId,
          worker,
          messageId,
          history,
          table,
          emit: sideChannel.emitApprovalRequest,
          onPark: () => {
            // Everything the stream wrote so far (the cards, and whatever else the step did), then the end.
            telemetry.event('turn.parked');
            void messageFromChunks(sideChannel.chunksSoFar(), continued)
              .then((message) => message && save(message))
              .finally(() => turn.abort.abort());
          },
          onTakenOver: () => {
            turn.takenOver = true;
            turn.abort.abort();
          },
        })
      : undefined;
  return turn;
}

/** The worker's table inside its shells. */
function hardenTools(start: ChatTurnStart, turn: Turn): ToolSet {
  const { history, worker, chatId, ownerId, table } = start;
  return assembleTurnTools({
    baseTools: table.tools,
    worker,
    chatId,
    ownerId,
    approval: turn.approvals?.shell,
    store: getIdempotencyStore(),
    effects: getEffectRecorder(),
    writeTools: table.writeTools,
    audit: turn.auditWriter.record,
    rateLimiter: getToolRateLimiter(),
    signal: turn.abort.signal,
    onReplay: turn.sideChannel?.markReplay,
    ...(turn.traced && {
      provenance: {
        ledger: ProvenanceLedger.fromHistory(history, trustOfTool, { mark: chatMarkOf(start.db, chatId) }),
        tools: turn.tracedWrites,
      },
    }),
  });
}

/** Files attached to the new message mark the chat before the model reads them (a file is someone else's text). */
async function markAttachedFiles({ db, chatId, history }: ChatTurnStart): Promise<void> {
  const last = history.at(-1);
  if (last?.role !== 'user' || !last.parts.some((part) => part.type === 'file')) return;
  const files = await ProvenanceLedger.filesOf(last);
  const mark = chatMarkOf(db, chatId);
  for (const { read } of files) await mark.record(read);
}

/** The model's stream of the turn, its message saved settled when it ends. */
async function streamModel(
  start: ChatTurnStart,
  turn: Turn,
  tools: ToolSet,
): Promise<ReadableStream<UIMessageChunk>> {
  const { db, chatId, worker, model, modelLabel, history, messageId } = start;
  const { telemetry, sideChannel } = turn;
  const metadata: ChatMessageMetadata = { worker, model: modelLabel };
  const { waiting = [], ended = [], answered = [] } = start.conversation ?? {};
  const call = await turnModelCall({
    model,
    worker,
    history,
    // Offered only while something waits: it can end nothing but this person's own requests in this
    // chat. Not on a turn whose message answers an approver's question: an answer withdraws nothing.
    tools:
      waiting.length > 0 && answered.length === 0
        ? {
            ...tools,
            [withdrawRequestToolName]: withdrawRequestTool({ db, chatId, ownerId: start.ownerId, waiting }),
          }
        : tools,
    abortSignal: turn.abort.signal,
    conversationNotes: waitingRequestsInstructions(waiting, ended, Date.now(), answered),
    overtaken: async () => {
      const asked = history.findLast((message) => message.role === 'user')?.id;
      return asked !== undefined && (await newestUserMessageId(db, chatId)) !== asked;
    },
  });
  const result = telemetry.run(() =>
    streamText({
      ...call,
      ...(telemetry.aiTelemetry !== undefined && { experimental_telemetry: telemetry.aiTelemetry }),
    }),
  );
  const chunks = result.toUIMessageStream({
    originalMessages: history,
    generateMessageId: () => messageId,
    // Tool and stream errors reach the client (and the saved chat) as a reference id; details go to the log.
    onError: publicErrorText,
    messageMetadata: ({ part }) => (part.type === 'start' ? metadata : undefined),
    onEnd: ({ messages }) => {
      turn.ended = (async () => {
        await turn.auditWriter.flush();
        const last = messages.at(-1);
        // A continuation took this turn over, or will (parked): its message is the one that counts.
        if (turn.takenOver || turn.approvals?.parking.parked || last === undefined || last.id !== messageId)
          return;
        const annotated = sideChannel ? sideChannel.annotate(last) : last;
        const settled = await settleToolParts(db, chatId, annotated);
        await turn.save(settled);
        await keepUndoneMarks(db, chatId, settled).catch((error) =>
          reportError(error, 'keeping undone marks'),
        );
      })();
      return turn.ended;
    },
  });
  const modelChunks = sideChannel ? chunks.pipeThrough(sideChannel.transform) : chunks;
  return start.prelude?.length ? prepend(start.prelude, modelChunks) : modelChunks;
}

/** The turn's chunks as a resumable SSE stream, registered as this chat's running turn until it ends. */
async function publishTurn(
  start: ChatTurnStart,
  turn: Turn,
  turnChunks: ReadableStream<UIMessageChunk>,
): Promise<ReadableStream<string>> {
  const { db, chatId, messageId } = start;
  const parking = turn.approvals?.parking;
  const streamId = generateId();
  let finish!: () => void;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const sse = turnChunks.pipeThrough(new JsonToSseTransformStream()).pipeThrough(
    new TransformStream<string, string>({
      async flush() {
        await turn.ended.catch(() => undefined);
        await turn.saving();
        if (runningTurns().get(chatId)?.streamId === streamId) runningTurns().delete(chatId);
        await clearChatStream(db, chatId, streamId).catch(() => undefined);
        publishTurnEnded(chatId);
        turn.telemetry.end({ parked: parking?.parked });
        finish();
      },
    }),
  );
  runningTurns().set(chatId, { streamId, abort: turn.abort, done, follow: parking?.follow });
  await setChatStream(db, { chatId, streamId, messageId, baseParts: start.baseParts });
  let stream: ReadableStream<string>;
  try {
    stream = (await getStreamContext().createNewResumableStream(streamId, () => sse)) ?? sse;
  } catch {
    // Without a place to publish it (Redis unreachable), the turn still streams to this client.
    stream = sse;
  }
  return start.followed ? followTurn(chatId, streamId, stream) : stream;
}

/** The message the chunks build, on top of `base` when the stream continues one. */
async function messageFromChunks(
  chunks: readonly UIMessageChunk[],
  base: UIMessage | undefined,
): Promise<UIMessage | undefined> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last: UIMessage | undefined;
  try {
    for await (const message of readUIMessageStream({ stream, message: base && structuredClone(base) }))
      last = message;
  } catch {
    return undefined;
  }
  return last;
}

function prepend(
  first: UIMessageChunk[],
  rest: ReadableStream<UIMessageChunk>,
): ReadableStream<UIMessageChunk> {
  const reader = rest.getReader();
  let index = 0;
  return new ReadableStream<UIMessageChunk>({
    async pull(controller) {
      if (index < first.length) {
        controller.enqueue(first[index++]);
        return;
      }
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}
