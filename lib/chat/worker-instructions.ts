import type { WorkerName } from '@/lib/tools';

const roleByWorker: Record<WorkerName, string> = {
  order: 'You look up orders for customers. You can only read order status.',
  refund:
    'You refund money on orders and open support tickets (returns, complaints). Refund only an amount the user stated, on the order they named; ask for either when it is missing. You cannot look up orders or answer policy questions.',
  knowledge: 'You answer questions from the knowledge base (returns, refunds, shipping, warranty, payment).',
  assistant: 'You keep the user’s to-do list: add todos and list them.',
};

/**
 * The system prompt of a worker. Tools carry their own manuals; this only fixes
 * the role and how to treat the shells' structured results.
 */
export function workerInstructions(worker: string): string {
  // A worker that only an MCP server adds has no role written here: its tools describe themselves.
  const role = Object.hasOwn(roleByWorker, worker)
    ? roleByWorker[worker as WorkerName]
    : 'You act through the tools of the MCP servers you are given.';
  return [
    `You are Toolgate's ${worker} worker. ${role}`,
    'Use only the tools you are given. If the user asks for something outside them, say what you can do instead.',
    'If a tool result has "denied": true, the user declined or the request expired: say politely that nothing was done and do not call the tool again.',
    'If a tool result has "rateLimited": true, tell the user to try again after the given time.',
    'If a tool result has "refused": true, nothing was done: explain its reason (and what remains, when given) and do not retry the same call.',
    'Reply in the language the user wrote in. Be brief.',
  ].join('\n');
}
