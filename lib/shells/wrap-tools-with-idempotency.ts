import type { ToolSet } from 'ai';
import type { IdempotencyStore } from '@/lib/stores/idempotency-store';
import { finalOutput, wrapExecute } from './wrap-execute';
import { writeToolNames } from './write-tool-names';

/** What observers (audit, UI) learn when a call was answered from an earlier execution. */
export type IdempotencyReplayEvent = { toolCallId: string; toolName: string; scope: string };

/** Options of {@link wrapToolsWithIdempotency}. */
export type IdempotencyShellOptions = {
  /** The window the key lives in, usually the chat id: the same args in another chat execute again. */
  scope: string;
  /** Names of the tools to guard. Default {@link writeToolNames}; reads stay fresh. */
  tools?: Iterable<string>;
  /** Whose window the entries count against (the user id): one user's calls never evict another's. */
  partition?: string;
  /** Called when a call is answered from an earlier or concurrent execution. The result is unchanged. */
  onReplay?: (event: IdempotencyReplayEvent) => void;
};

/**
 * Makes the chosen tools execute at most once per `scope::toolName::args` within
 * the store's window; repeats get the first execution's result.
 *
 * The key is computed from the input the AI SDK passes to `execute`, which it
 * has already validated against inputSchema. Only `execute` is replaced.
 * Failures are not remembered (the store caches successes only), so a retry
 * after an error really runs again.
 */
export function wrapToolsWithIdempotency<TOOLS extends ToolSet>(
  table: TOOLS,
  store: IdempotencyStore,
  { scope, tools = writeToolNames, onReplay, partition }: IdempotencyShellOptions,
): TOOLS {
  return wrapExecute(
    table,
    tools,
    (execute, toolName) => (input, options) =>
      store.run(scope, toolName, input, () => finalOutput(execute(input, options)), {
        onReplay: onReplay && (() => onReplay({ toolCallId: options.toolCallId, toolName, scope })),
        partition,
      }),
  );
}
