import type { UIMessageChunk } from 'ai';

/**
 * Reads an AI SDK UI message stream (SSE) chunk by chunk, as they arrive.
 * Ends at `[DONE]` or when the body ends.
 */
export async function* readUIChunks(response: Response): AsyncGenerator<UIMessageChunk> {
  if (response.body === null) return;
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const bytes of response.body) {
    buffer += decoder.decode(bytes as Uint8Array, { stream: true });
    let boundary = buffer.indexOf('\n\n');
    while (boundary !== -1) {
      const event = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      boundary = buffer.indexOf('\n\n');
      for (const line of event.split('\n')) {
        if (!line.startsWith('data:')) continue;
        const data = line.slice(5).trim();
        if (data === '[DONE]') return;
        yield JSON.parse(data) as UIMessageChunk;
      }
    }
  }
}

/** A user message in the shape `useChat` sends. */
export function userMessage(text: string, id = 'user-1') {
  return { id, role: 'user' as const, parts: [{ type: 'text' as const, text }] };
}
