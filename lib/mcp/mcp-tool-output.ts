import type { CallToolResult } from '@ai-sdk/mcp';

/** What an MCP tool call returns to the model: text only, bounded in size. */
export type McpToolOutput = {
  text: string;
  /** Set when the server sent more than the limit and the rest was cut. */
  truncated?: true;
  /** Kinds of content left out because they are not text (images, audio, binary resources). */
  omitted?: string[];
};

/** A tool call the MCP server itself reported as failed (`isError`). */
export class McpToolError extends Error {
  override name = 'McpToolError';
}

// Control characters other than tab and newline: terminal escapes and the like have no place in a prompt.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
const controlCharacters = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Turns an MCP `CallToolResult`, which is untrusted, into a tool output the model may
 * read: only text (and the text of embedded text resources, or structured content
 * when there is no text), stripped of control characters and cut at `maxChars`.
 * A result marked `isError` throws {@link McpToolError} with its text, so the call is
 * audited as an error and never cached as a success.
 */
export function toMcpToolOutput(result: CallToolResult, { maxChars }: { maxChars: number }): McpToolOutput {
  const texts: string[] = [];
  const omitted = new Set<string>();
  if ('content' in result && Array.isArray(result.content)) {
    for (const part of result.content) {
      if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
      else if (
        part.type === 'resource' &&
        typeof (part.resource as { text?: unknown } | undefined)?.text === 'string'
      ) {
        texts.push((part.resource as { text: string }).text);
      } else omitted.add(String(part.type));
    }
  }
  if (texts.length === 0 && 'structuredContent' in result && result.structuredContent != null) {
    texts.push(JSON.stringify(result.structuredContent));
  }
  if ('toolResult' in result && texts.length === 0) texts.push(JSON.stringify(result.toolResult));

  const whole = texts.join('\n\n').replace(controlCharacters, '');
  const text = whole.length > maxChars ? whole.slice(0, maxChars) : whole;
  if ('isError' in result && result.isError === true) {
    throw new McpToolError(text === '' ? 'The tool reported an error without a message' : text);
  }
  return {
    text,
    ...(text.length < whole.length ? { truncated: true as const } : {}),
    ...(omitted.size > 0 ? { omitted: [...omitted] } : {}),
  };
}
