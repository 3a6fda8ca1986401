import type { Language } from '@/lib/ai/language';
import type { ToolName } from '@/lib/config';
import { summarizeAddTodo } from './add-todo';
import { summarizeCreateTicket } from './create-ticket';
import { summarizeGetOrderStatus } from './get-order-status';
import { summarizeListTodos } from './list-todos';
import { summarizeSearchKnowledgeBase } from './search-knowledge-base';

/** Each built-in tool's one-line summary of a call (declared beside the tool). */
const summaryByTool: Record<ToolName, (input: unknown, language: Language) => string> = {
  createTicket: summarizeCreateTicket,
  addTodo: summarizeAddTodo,
  getOrderStatus: summarizeGetOrderStatus,
  searchKnowledgeBase: summarizeSearchKnowledgeBase,
  listTodos: summarizeListTodos,
};

/** A call's summary in both languages, or undefined for a tool without one (MCP tools). */
export function summarizeToolCall(toolName: string, input: unknown): Record<Language, string> | undefined {
  if (!Object.hasOwn(summaryByTool, toolName)) return undefined;
  const summarize = summaryByTool[toolName as ToolName];
  return { en: summarize(input, 'en'), zh: summarize(input, 'zh') };
}
