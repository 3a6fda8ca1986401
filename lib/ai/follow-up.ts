import type { ToolName } from '@/lib/tools/tool-catalog';
import type { Localized } from '@/lib/tools/tool-facts';
import type { Language } from './language';
import { answerRequest, type ToolRequest, type Understanding } from './nlu/understand';
import { lacksArgument, type OfflineTool, offlineTools, toolOfIntent } from './offline-tools';

type AskingTool = OfflineTool & { offline: { argument: { question: Localized } } };

const askingTools = offlineTools.filter((tool): tool is AskingTool => tool.offline.argument !== undefined);

/**
 * The question asked for each missing argument (declared in each tool's facts). The offline
 * model recognises its own question in the conversation (the message it ends with), which is
 * how the next message fills it.
 */
export const missingArgumentQuestions: Readonly<Partial<Record<ToolName, Localized>>> = Object.fromEntries(
  askingTools.map((tool) => [tool.name, tool.offline.argument.question]),
);

/** The question for a request whose required argument is missing, or `undefined` when it is complete. */
export function missingArgumentQuestion(request: ToolRequest, language: Language): string | undefined {
  return lacksArgument(request)
    ? toolOfIntent(request.intent)?.offline.argument?.question[language]
    : undefined;
}

/** The tool whose argument an assistant message ends by asking for, if it is one of those questions. */
export function questionAskedIn(assistantText: string): ToolName | undefined {
  const text = assistantText.trim();
  return askingTools.find((tool) =>
    Object.values(tool.offline.argument.question).some((question) => text.endsWith(question)),
  )?.name;
}

/** Below this the classifier's reading of a reply to a question is not enough to change the subject. */
const newTopicConfidence = 0.85;

/**
 * True when a message that follows a question starts something new instead of answering it:
 * a confident, complete request ("where is A1001", "create a ticket: …"), a greeting or thanks. A bare
 * "the fridge is noisy" or "A1008" is an answer.
 */
export function startsNewTopic(understanding: Understanding): boolean {
  if (understanding.intent === 'greeting' || understanding.intent === 'thanks')
    return understanding.confidence >= newTopicConfidence;
  const [first] = understanding.requests;
  if (first === undefined || understanding.confidence < newTopicConfidence) return false;
  return missingArgumentQuestion(first, 'en') === undefined;
}

/** Reads a message as the answer to the question `toolName` asked (`undefined` for a tool that asks none). */
export function answerTo(toolName: ToolName, text: string): ToolRequest | undefined {
  const tool = askingTools.find((candidate) => candidate.name === toolName);
  return tool === undefined ? undefined : answerRequest(tool.offline.intent, text);
}
