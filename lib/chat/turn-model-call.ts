import { isToolDenial } from '@toolgate/engine/client';
import { traceRejectedToolCall } from '@toolgate/engine/telemetry';
import {
  convertToModelMessages,
  type LanguageModel,
  type StopCondition,
  stepCountIs,
  type ToolSet,
  type UIMessage,
} from 'ai';
import { filePartForModel, refuseDownloads } from './inline-files';
import { sanitizeUIMessages } from './sanitize-ui-messages';
import { workerInstructions } from './worker-instructions';

/** The most model steps one turn may take (tool call → result → answer, twice). */
export const maxTurnSteps = 6;

/** What one turn hands the model. */
export type TurnModelCallOptions = {
  model: LanguageModel;
  worker: string;
  /** The stored history: ends with the new user message, or with the assistant message to continue. */
  history: UIMessage[];
  /** The tool table the model may call (hardened, or bare for the bench baseline). */
  tools: ToolSet;
  abortSignal?: AbortSignal;
  /** Said after the worker's instructions: the chat's waiting requests and just-ended cards. */
  conversationNotes?: string;
  /**
   * Whether the person has written again since this turn began. Asked only after a step in
   * which a call was refused (their new message denies or supersedes the cards it ends): the
   * turn then stops there, and the new message's turn is the one reply.
   */
  overtaken?: () => Promise<boolean>;
};

/** Stops after a step with a refused call when the person has written again since the turn began. */
function stopWhenOvertaken(overtaken: () => Promise<boolean>): StopCondition<ToolSet> {
  return async ({ steps }) => {
    const results = steps.at(-1)?.toolResults ?? [];
    return results.some((result) => isToolDenial(result.output)) && (await overtaken());
  };
}

/**
 * The settings of one turn's model loop, for `streamText` and `generateText` alike: the
 * worker's instructions, the history as model messages, the tools, the step limit and no downloads.
 * The streaming turn, the non-streaming turn and the bench baseline all start from here.
 */
export async function turnModelCall({
  model,
  worker,
  history,
  tools,
  abortSignal,
  conversationNotes,
  overtaken,
}: TurnModelCallOptions) {
  const instructions = workerInstructions(worker);
  return {
    model,
    system: conversationNotes ? `${instructions}\n${conversationNotes}` : instructions,
    messages: await convertToModelMessages(
      sanitizeUIMessages(history).map((message) => ({
        ...message,
        parts: message.parts.map(filePartForModel),
      })),
      {
        tools,
        ignoreIncompleteToolCalls: true,
      },
    ),
    tools,
    stopWhen: overtaken
      ? [stepCountIs(maxTurnSteps), stopWhenOvertaken(overtaken)]
      : stepCountIs(maxTurnSteps),
    // Nothing a user or the history names by URL is fetched by the server.
    experimental_download: refuseDownloads,
    // A call refused before the shells (unknown tool, invalid input) is traced all the same.
    onChunk: traceRejectedToolCall,
    abortSignal,
  };
}
