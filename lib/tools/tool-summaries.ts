import type { Language } from '@/lib/ai/language';
import type { ToolName } from '@/lib/config';
import { summarizeAddTodo, summarizeAddTodoResult } from './add-todo';
import { summarizeCreateTicket, summarizeCreateTicketResult } from './create-ticket';
import { summarizeGetOrderStatus, summarizeGetOrderStatusResult } from './get-order-status';
import { summarizeListTodos, summarizeListTodosResult } from './list-todos';
import { summarizeSearchKnowledgeBase, summarizeSearchKnowledgeBaseResult } from './search-knowledge-base';

/*
 * Pure functions of a call's input and output, with no server state: the chat page imports
 * them too, to title and fold tool parts that never passed an approval card.
 */

type Summarize = (value: unknown, language: Language) => string;

/** Each built-in tool's one-line summary of a call (declared beside the tool). */
const summaryByTool: Record<ToolName, Summarize> = {
  createTicket: summarizeCreateTicket,
  addTodo: summarizeAddTodo,
  getOrderStatus: summarizeGetOrderStatus,
  searchKnowledgeBase: summarizeSearchKnowledgeBase,
  listTodos: summarizeListTodos,
};

/** Each built-in tool's one-line summary of a call's result (declared beside the tool). */
const resultSummaryByTool: Record<ToolName, Summarize> = {
  createTicket: summarizeCreateTicketResult,
  addTodo: summarizeAddTodoResult,
  getOrderStatus: summarizeGetOrderStatusResult,
  searchKnowledgeBase: summarizeSearchKnowledgeBaseResult,
  listTodos: summarizeListTodosResult,
};

function inBothLanguages(
  byTool: Record<ToolName, Summarize>,
  toolName: string,
  value: unknown,
): Record<Language, string> | undefined {
  if (!Object.hasOwn(byTool, toolName)) return undefined;
  const summarize = byTool[toolName as ToolName];
  return { en: summarize(value, 'en'), zh: summarize(value, 'zh') };
}

/** A call's summary in both languages, or undefined for a tool without one (MCP tools). */
export function summarizeToolCall(toolName: string, input: unknown): Record<Language, string> | undefined {
  return inBothLanguages(summaryByTool, toolName, input);
}

/** A call's result in one line, in both languages, or undefined for a tool without one (MCP tools). */
export function summarizeToolResult(toolName: string, output: unknown): Record<Language, string> | undefined {
  return inBothLanguages(resultSummaryByTool, toolName, output);
}
