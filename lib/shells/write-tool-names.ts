/**
 * The tools that change data. The idempotency shell guards these by default;
 * reads are left out on purpose, because a read must always show the current state.
 */
export const writeToolNames: ReadonlySet<string> = new Set(['createTicket', 'addTodo']);
