import type { ToolSet } from 'ai';
import { downstreamIdempotencyKey, type WriteExecution } from '../shared/write-execution';
import type { IdempotencyStore } from '../stores/idempotency-store';
import { finalOutput, wrapExecute } from './wrap-execute';

/** What observers (audit, UI) learn when a call was answered from an earlier execution. */
export type IdempotencyReplayEvent = { toolCallId: string; toolName: string; scope: string };

/** One guarded call, as the effect recorder files it. */
export type EffectCall = {
  idempotencyKey: string;
  scope: string;
  toolName: string;
  toolCallId: string;
  /** The validated input the key was derived from. */
  input: unknown;
  partition?: string;
};

/**
 * Commits a tool's effect together with the record of its result (see `WriteExecution.commit`),
 * or answers the recorded result of an earlier run of the same key.
 */
export type EffectRecorder = {
  commit<OUTPUT>(
    call: EffectCall,
    effect: (transaction: unknown) => Promise<OUTPUT>,
  ): Promise<{ output: OUTPUT; replayed: boolean }>;
};

/** Options of {@link wrapToolsWithIdempotency}. */
export type IdempotencyShellOptions = {
  /** The window the key lives in, usually the chat id: the same args in another chat execute again. */
  scope: string;
  /** Names of the tools to guard: the tools that write. Reads are left alone and stay fresh. */
  tools: Iterable<string>;
  /** Whose window the entries count against (the user id): one user's calls never evict another's. */
  partition?: string;
  /** Called when a call is answered from an earlier or concurrent execution. The result is unchanged. */
  onReplay?: (event: IdempotencyReplayEvent) => void;
  /**
   * Records each write's result in the write's own transaction, for tools that commit
   * through `options.idempotency.commit`: a repeat the store does not know (a crash
   * before the store's write, a flushed Redis, an evicted entry) replays the record.
   */
  effects?: EffectRecorder;
};

/**
 * Makes the chosen tools execute at most once per `scope::toolName::args` within
 * the store's window; repeats get the first execution's result.
 *
 * The key is computed from the input the AI SDK passes to `execute`, which it
 * has already validated against inputSchema. Only `execute` is replaced.
 * Failures are not remembered (the store caches successes only), so a retry
 * after an error really runs again. The tool's `execute` gets `options.idempotency`
 * (`WriteExecution`): its key, and with `effects` a `commit` for its writes.
 */
export function wrapToolsWithIdempotency<TOOLS extends ToolSet>(
  table: TOOLS,
  store: IdempotencyStore,
  { scope, tools, onReplay, partition, effects }: IdempotencyShellOptions,
): TOOLS {
  return wrapExecute(table, tools, (execute, toolName) => (input, options) => {
    const replayed = onReplay && (() => onReplay({ toolCallId: options.toolCallId, toolName, scope }));
    return store.run(
      scope,
      toolName,
      input,
      () => {
        const key = downstreamIdempotencyKey(scope, toolName, input);
        const idempotency: WriteExecution = { idempotencyKey: key };
        if (effects !== undefined) {
          const call = {
            idempotencyKey: key,
            scope,
            toolName,
            toolCallId: options.toolCallId,
            input,
            partition,
          };
          idempotency.commit = async (effect) => {
            const committed = await effects.commit(call, effect);
            if (committed.replayed) replayed?.();
            return committed.output;
          };
        }
        // `idempotency` rides beside the AI SDK's options; the tool reads it with `writeExecutionOf`.
        return finalOutput(execute(input, Object.assign({ ...options }, { idempotency })));
      },
      { onReplay: replayed, partition },
    );
  });
}
