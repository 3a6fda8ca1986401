import { maxJsonDepth, nestsDeeperThan } from '@/lib/http/json-depth';

/** A message in the form `/tool <name> <json input>`: the user names the call outright. */
export type ToolCommand = { toolName: string; input: unknown };

/**
 * What a message says as a command: none, a command, or one that cannot run because its input
 * is not JSON (`malformed`) or nests deeper than any request body may (`too-deep`).
 */
export type ToolCommandReading =
  | { kind: 'none' }
  | { kind: 'command'; command: ToolCommand }
  | { kind: 'malformed' }
  | { kind: 'too-deep'; limit: number };

const commandPattern = /^\s*\/tool\s+([A-Za-z_][\w.-]*)(?:\s+([\s\S]*))?$/;

/** True when the message starts like a `/tool` command, parseable or not. */
export function looksLikeToolCommand(text: string): boolean {
  return /^\s*\/tool\b/.test(text);
}

/**
 * Reads `/tool <name> <json input>`; the input defaults to `{}` when absent. The input obeys the
 * request bodies' nesting limit: the text around it is bounded by length only, and a few parts
 * of brackets would otherwise overflow the stack wherever the input is copied or serialized.
 */
export function readToolCommand(text: string): ToolCommandReading {
  if (!looksLikeToolCommand(text)) return { kind: 'none' };
  const match = commandPattern.exec(text);
  if (match === null) return { kind: 'malformed' };
  const json = match[2]?.trim() || '{}';
  let input: unknown;
  try {
    input = JSON.parse(json);
  } catch {
    return { kind: 'malformed' };
  }
  if (nestsDeeperThan(input, maxJsonDepth)) return { kind: 'too-deep', limit: maxJsonDepth };
  return { kind: 'command', command: { toolName: match[1] as string, input } };
}

/**
 * The command a message makes, or `undefined` for a message that is not one or cannot run.
 * The tool's own schema validates the input later, exactly as for a model's call.
 */
export function parseToolCommand(text: string): ToolCommand | undefined {
  const reading = readToolCommand(text);
  return reading.kind === 'command' ? reading.command : undefined;
}
