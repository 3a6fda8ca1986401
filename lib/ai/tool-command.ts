/** A user message that names the tool to call: `/tool <name> <json input>`. */
export type ToolCommand = { toolName: string; input: unknown };

const commandPattern = /^\/tool\s+([A-Za-z0-9_-]{1,64})(?:\s+([\s\S]*))?$/;

/**
 * Reads `/tool <name> <json input>` (the input may be left out for `{}`). Anything
 * else, a malformed JSON input included, is not a command and gets the usual reading.
 * The offline model calls the named tool if its table has it, and the router sends
 * the message to the worker that holds it: a way to reach any tool, MCP ones included,
 * without a phrase for it.
 */
export function parseToolCommand(text: string): ToolCommand | undefined {
  const match = commandPattern.exec(text.trim());
  if (match === null) return undefined;
  const [, toolName, json] = match;
  if (json === undefined || json.trim() === '') return { toolName, input: {} };
  try {
    return { toolName, input: JSON.parse(json) };
  } catch {
    return undefined;
  }
}

/** The offline model's answer to a command naming a tool outside its table. */
export function toolNotInTableReply(
  toolName: string,
  offered: readonly string[],
  language: 'zh' | 'en',
): string {
  const list = offered.length > 0 ? offered.join(', ') : language === 'zh' ? '（无）' : '(none)';
  return language === 'zh'
    ? `这里不能调用 ${toolName}：它不在这个助手的工具表里。可用的工具：${list}。`
    : `I can’t call ${toolName} here: it is not in this worker’s tool table. Tools here: ${list}.`;
}
