import type { ToolSet } from 'ai';

/**
 * A shell hardens a tool table: it returns a table with the same tools whose
 * `execute` may be replaced. Description and inputSchema pass through untouched,
 * so the model sees the same tool surface.
 */
export type ToolShell<TOOLS extends ToolSet = ToolSet> = (table: TOOLS) => TOOLS;

/**
 * Applies `shells` to `base` so that `shells[0]` is the outermost shell: it sees
 * every call first and the result last. The list is written in interception
 * order; this mirrors the AI SDK's `wrapLanguageModel` (reverse, then reduce).
 *
 * Order carries meaning: approval must come before idempotency, or a denial
 * would be cached as the call's result. An empty list returns `base` itself.
 */
export function composeToolShells<TOOLS extends ToolSet>(
  base: TOOLS,
  shells: readonly ToolShell<TOOLS>[],
): TOOLS {
  return [...shells].reverse().reduce((table, shell) => shell(table), base);
}
