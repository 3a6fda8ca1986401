import { toolCatalog } from '@/lib/tools/tool-catalog';
import type { Language } from './language';
import { cleanTitle } from './nlu/extract-title';
import { findOrderIds } from './nlu/features';
import type { ToolRequest, Understanding } from './nlu/understand';

/** The tools whose required argument the offline model asks for when it is missing. */
export type AskingToolName = Extract<
  (typeof toolCatalog)[number],
  { missingArgumentQuestion: object }
>['name'];

/**
 * The question asked for each missing argument (declared in each tool's facts). The offline
 * model recognises its own question in the conversation (the message it ends with), which is
 * how the next message fills it.
 */
export const missingArgumentQuestions = Object.fromEntries(
  toolCatalog.flatMap((facts) =>
    'missingArgumentQuestion' in facts ? [[facts.name, facts.missingArgumentQuestion]] : [],
  ),
) as Record<AskingToolName, Record<Language, string>>;

const askingToolNames = Object.keys(missingArgumentQuestions) as AskingToolName[];

/** The question for a request whose required argument is missing, or `undefined` when it is complete. */
export function missingArgumentQuestion(request: ToolRequest, language: Language): string | undefined {
  const missing =
    ((request.toolName === 'createTicket' || request.toolName === 'addTodo') && request.title === '') ||
    (request.toolName === 'getOrderStatus' && request.orderIds.length === 0) ||
    (request.toolName === 'searchKnowledgeBase' && request.query.trim() === '');
  return missing ? missingArgumentQuestions[request.toolName as AskingToolName][language] : undefined;
}

/** The tool whose argument an assistant message ends by asking for, if it is one of those questions. */
export function questionAskedIn(assistantText: string): AskingToolName | undefined {
  const text = assistantText.trim();
  return askingToolNames.find((toolName) =>
    Object.values(missingArgumentQuestions[toolName]).some((question) => text.endsWith(question)),
  );
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

/** Reads a message as the answer to the question for `toolName`. */
export function answerTo(toolName: AskingToolName, text: string): ToolRequest {
  switch (toolName) {
    case 'createTicket':
    case 'addTodo':
      return { toolName, title: cleanTitle(text) };
    case 'getOrderStatus':
      return { toolName, orderIds: findOrderIds(text) };
    case 'searchKnowledgeBase':
      return { toolName, query: text.trim() };
  }
}
