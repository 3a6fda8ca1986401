import type { Language } from '@/lib/ai/language';
import type { ToolName } from '@/lib/config';
import { addTodoFieldLabels } from './add-todo';
import { createTicketFieldLabels } from './create-ticket';
import { getOrderStatusFieldLabels } from './get-order-status';
import { listTodosFieldLabels } from './list-todos';
import { searchKnowledgeBaseFieldLabels } from './search-knowledge-base';

/**
 * Each built-in tool's field labels in every UI language (declared beside the tool),
 * for the approval card's edit form. MCP tools have none; their form falls back to
 * the server's own descriptions.
 */
export const fieldLabelsByTool: Record<ToolName, Record<string, Record<Language, string>>> = {
  createTicket: createTicketFieldLabels,
  addTodo: addTodoFieldLabels,
  getOrderStatus: getOrderStatusFieldLabels,
  searchKnowledgeBase: searchKnowledgeBaseFieldLabels,
  listTodos: listTodosFieldLabels,
};
