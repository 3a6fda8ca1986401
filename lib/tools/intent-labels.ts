/** The labels that ask for a tool call; a tool's facts name the one it answers (`offline.intent`). */
export const requestIntentLabels = [
  'createTicket',
  'issueRefund',
  'getOrderStatus',
  'searchKnowledgeBase',
  'addTodo',
  'listTodos',
] as const;

/**
 * What one clause of a user message asks for. Six are tool requests; `greeting` asks what
 * the assistant can do; `thanks` thanks it or closes the conversation; `other` asks for nothing
 * (chat, or a bare answer to a question).
 */
export const intentLabels = [...requestIntentLabels, 'greeting', 'thanks', 'other'] as const;

/** One of `intentLabels`. */
export type IntentLabel = (typeof intentLabels)[number];

/** One of `requestIntentLabels`. */
export type RequestIntent = (typeof requestIntentLabels)[number];
