import { describe, expect, it } from 'vitest';
import { McpToolError, toMcpToolOutput } from '@/lib/mcp/mcp-tool-output';

describe('toMcpToolOutput', () => {
  it('keeps the text and names what it left out', () => {
    const output = toMcpToolOutput(
      {
        content: [
          { type: 'text', text: 'first' },
          { type: 'image', data: 'aGk=', mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'file:///a.txt', text: 'embedded' } },
        ],
      },
      { maxChars: 1000 },
    );
    expect(output).toEqual({ text: 'first\n\nembedded', omitted: ['image'] });
  });

  it('cuts an oversized result at the limit and says so', () => {
    const output = toMcpToolOutput({ content: [{ type: 'text', text: 'x'.repeat(50) }] }, { maxChars: 10 });
    expect(output).toEqual({ text: 'x'.repeat(10), truncated: true });
  });

  it('strips control characters such as terminal escapes', () => {
    const output = toMcpToolOutput(
      { content: [{ type: 'text', text: 'ok\u001b[31m red\u0000\n' }] },
      { maxChars: 100 },
    );
    expect(output.text).toBe('ok[31m red\n');
  });

  it('throws the server’s message when the server marks the result as an error', () => {
    expect(() =>
      toMcpToolOutput(
        { content: [{ type: 'text', text: 'no such note' }], isError: true },
        { maxChars: 100 },
      ),
    ).toThrow(new McpToolError('no such note'));
  });
});
