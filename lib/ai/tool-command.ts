/** A message in the form `/tool <name> <json input>`: the user names the call outright. */
export type ToolCommand = { toolName: string; input: unknown };

const commandPattern = /^\s*\/tool\s+([A-Za-z_][\w.-]*)(?:\s+([\s\S]*))?$/;

/** True when the message starts like a `/tool` command, parseable or not. */
export function looksLikeToolCommand(text: string): boolean {
  return /^\s*\/tool\b/.test(text);
}

/**
 * Reads `/tool <name> <json input>`. The input defaults to `{}` when absent; a message that is
 * not a command, or whose input is not valid JSON, gives `undefined`. The tool's own schema
 * validates the input later, exactly as for a model's call.
 */
export function parseToolCommand(text: string): ToolCommand | undefined {
  const match = commandPattern.exec(text);
  if (match === null) return undefined;
  const json = match[2]?.trim() || '{}';
  try {
    return { toolName: match[1] as string, input: JSON.parse(json) };
  } catch {
    return undefined;
  }
}
