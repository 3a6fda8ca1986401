import type { ToolName } from '@/lib/tools/tool-catalog';
import type { Localized } from '@/lib/tools/tool-facts';
import type { Language } from './language';
import { findOrderIds } from './nlu/features';
import { answerRequest, type ToolRequest, type Understanding } from './nlu/understand';
import { lacksArgument, missingDetail, type OfflineTool, offlineTools, toolOfIntent } from './offline-tools';

type AskingTool = OfflineTool & { offline: { argument: { question: Localized } } };

const askingTools = offlineTools.filter((tool): tool is AskingTool => tool.offline.argument !== undefined);

/*
 * The questions are declared in each tool's facts. The offline model recognises its own question
 * in the conversation (the message it ends with), which is how the next message fills it.
 */

/** Every question a tool asks: for its argument, then for each further field. */
const questionsOf = (tool: AskingTool): Localized[] => [
  tool.offline.argument.question,
  ...(tool.offline.details ?? []).map((detail) => detail.question),
];

/** The question for a field of `toolName` named in `text` (a validation error), else its argument's question. */
export function questionForField(toolName: string, text: string, language: Language): string | undefined {
  const tool = askingTools.find((candidate) => candidate.name === toolName);
  if (tool === undefined) return undefined;
  const named = (tool.offline.details ?? []).find(({ field }) => new RegExp(`\\b${field}\\b`).test(text));
  return (named?.question ?? tool.offline.argument.question)[language];
}

/**
 * The question for a request whose required argument (or, once that is there, a further field
 * such as a refund's amount) is missing, or `undefined` when it is complete.
 */
export function missingArgumentQuestion(request: ToolRequest, language: Language): string | undefined {
  if (lacksArgument(request)) return toolOfIntent(request.intent)?.offline.argument?.question[language];
  return missingDetail(request)?.question[language];
}

/** The tool whose argument (or further field) an assistant message ends by asking for, if it is one of those questions. */
export function questionAskedIn(assistantText: string): ToolName | undefined {
  const text = assistantText.trim();
  return askingTools.find((tool) =>
    questionsOf(tool).some((question) => Object.values(question).some((asked) => text.endsWith(asked))),
  )?.name;
}

/** Below this the classifier's reading of a reply to a question is not enough to change the subject. */
const newTopicConfidence = 0.85;

// What is left of a bare answer once its order numbers and amounts are taken out: labels, currency words, punctuation.
const answerFiller =
  /\b(?:order|number|no|amount|the|it's|its|it|is|my|of|usd|cny|rmb|dollars?|bucks|yuan)\b|订单号?|单号|金额|是|的|元|块钱?|美元|[\d\s.,，。:：#$¥￥!！]/giu;

/** True for a message that is nothing but an order number and or an amount ("A1002", "80 元", "order A1002, $80"). */
function isBareAnswer(text: string): boolean {
  const withoutIds = findOrderIds(text).reduce((rest, id) => rest.replace(new RegExp(id, 'gi'), ' '), text);
  return /[\dA-Za-z]/.test(text) && withoutIds.replace(answerFiller, '') === '';
}

/**
 * True when a message that follows a question starts something new instead of answering it:
 * a confident, complete request ("where is A1001", "create a ticket: …"), a greeting or thanks. A bare
 * "the fridge is noisy" or "A1008" is an answer; so is a bare order number or amount after a
 * question asking for one (`asked`: the tool whose question it follows), though "A1002" alone
 * would otherwise read as a lookup.
 */
export function startsNewTopic(
  understanding: Understanding,
  { text, asked }: { text?: string; asked?: ToolName } = {},
): boolean {
  if (understanding.intent === 'greeting' || understanding.intent === 'thanks')
    return understanding.confidence >= newTopicConfidence;
  const [first] = understanding.requests;
  if (first === undefined || understanding.confidence < newTopicConfidence) return false;
  const askingTool = askingTools.find((tool) => tool.name === asked);
  if (askingTool?.offline.details !== undefined && text !== undefined && isBareAnswer(text)) return false;
  return missingArgumentQuestion(first, 'en') === undefined;
}

/**
 * Reads a message as the answer to the question `toolName` asked (`undefined` for a tool that asks
 * none). `earlier`: the user messages of the same request before it (oldest first), which the
 * answer completes.
 */
export function answerTo(
  toolName: ToolName,
  text: string,
  earlier: readonly string[] = [],
): ToolRequest | undefined {
  const tool = askingTools.find((candidate) => candidate.name === toolName);
  return tool === undefined ? undefined : answerRequest(tool.offline.intent, text, earlier);
}
