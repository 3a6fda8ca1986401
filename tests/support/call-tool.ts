/**
 * Calls a tool's `execute` the way the AI SDK does after validation: `(input, { toolCallId,
 * messages, context, abortSignal })`. Throws for a tool without one.
 */
export function call(
  // biome-ignore lint/suspicious/noExplicitAny: test helper over any tool.
  tool: { execute?: (input: any, options: any) => unknown },
  input: unknown,
  toolCallId: string,
  abortSignal?: AbortSignal,
) {
  if (tool.execute === undefined) throw new Error('tool has no execute');
  return tool.execute(input, { toolCallId, messages: [], context: {}, abortSignal });
}
