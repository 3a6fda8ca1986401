/**
 * What one clause of a user message asks for. Six are tool requests; `greeting` asks what
 * the assistant can do; `thanks` thanks it or closes the conversation; `other` asks for nothing
 * (chat, or a bare answer to a question).
 */
export const intentLabels = [
  'createTicket',
  'issueRefund',
  'getOrderStatus',
  'searchKnowledgeBase',
  'addTodo',
  'listTodos',
  'greeting',
  'thanks',
  'other',
] as const;

/** One of `intentLabels`. */
export type IntentLabel = (typeof intentLabels)[number];

/** A label that asks for a tool call; a tool's facts name the one it answers (`offline.intent`). */
export type RequestIntent = Exclude<IntentLabel, 'greeting' | 'thanks' | 'other'>;
