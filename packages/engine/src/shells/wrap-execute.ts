import type { ToolExecutionOptions, ToolSet } from 'ai';

/** A tool's `execute` as a shell sees it: input and options in, output (maybe streamed) out. */
// biome-ignore lint/suspicious/noExplicitAny: a shell is generic over every tool's input and context.
export type ToolExecute = (input: any, options: ToolExecutionOptions<any>) => unknown;

/**
 * The plumbing every shell shares: returns a new table in which each tool named
 * in `toolNames` that has an `execute` gets `wrap(execute, toolName)` instead.
 *
 * Names come from configuration and the model, so only the table's own
 * properties are considered (never `constructor`, `__proto__` and friends).
 * A wrapped tool is a copy made from the original's property descriptors, so
 * description, inputSchema and every other field, enumerable or not, stay the
 * same references. Tools without `execute` (provider-executed) pass through.
 */
export function wrapExecute<TOOLS extends ToolSet>(
  table: TOOLS,
  toolNames: Iterable<string>,
  wrap: (execute: ToolExecute, toolName: string) => ToolExecute,
): TOOLS {
  const selected = new Set(toolNames);
  const entries = Object.entries(table).map(([toolName, tool]) => {
    const execute = tool.execute as ToolExecute | undefined;
    if (!selected.has(toolName) || typeof execute !== 'function') return [toolName, tool];
    // Called as a method, as the AI SDK does, in case a tool relies on `this`.
    const original: ToolExecute = (input, options) => execute.call(tool, input, options);
    const wrapped = Object.create(Object.getPrototypeOf(tool), Object.getOwnPropertyDescriptors(tool));
    Object.defineProperty(wrapped, 'execute', {
      value: wrap(original, toolName),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    return [toolName, wrapped];
  });
  // fromEntries defines own data properties, so a tool named `__proto__` stays a tool.
  return Object.fromEntries(entries) as TOOLS;
}

/**
 * Awaits a tool's output. A streaming tool (`execute` returning an async
 * iterable) is drained to its last value, which is what the AI SDK reports as
 * the final output; shells that must hold a plain value (a cache, a gate) use this.
 */
export async function finalOutput(result: unknown): Promise<unknown> {
  if (!isAsyncIterable(result)) return result;
  let last: unknown;
  for await (const output of result) last = output;
  return last;
}

/** Whether a tool's output is streamed (an async iterable of preliminary outputs). */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    value != null && typeof (value as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] === 'function'
  );
}
