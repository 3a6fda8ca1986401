import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { NextRequest } from 'next/server';

let messageCounter = 0;

/** A user message as `useChat` sends it. */
export function userMessage(text: string): UIMessage {
  messageCounter += 1;
  return { id: `user-${messageCounter}`, role: 'user', parts: [{ type: 'text', text }] };
}

let defaultCookie: string | undefined;

/** The session `jsonRequest` sends when none is given (set by `configureServer`). */
export function setDefaultTestCookie(cookie: string | undefined): void {
  defaultCookie = cookie;
}

/** The default test session's `cookie` header. */
export function defaultTestCookie(): string | undefined {
  return defaultCookie;
}

/**
 * A real request to a route handler, as Next.js would build it, with the default test
 * session unless `cookie` is given (`cookie: ''` sends none).
 */
export function jsonRequest(
  path: string,
  body: unknown,
  {
    cookie = defaultCookie,
    signal,
    method = 'POST',
  }: { cookie?: string; signal?: AbortSignal; method?: string } = {},
): NextRequest {
  const headers = new Headers({ 'content-type': 'application/json' });
  if (cookie !== undefined && cookie !== '') headers.set('cookie', cookie);
  return new NextRequest(new URL(path, 'http://localhost'), {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    signal,
  });
}

/** A GET request to a route handler, with the default test session unless `cookie` is given. */
export function getRequest(path: string, { cookie = defaultCookie }: { cookie?: string } = {}): NextRequest {
  return jsonRequest(path, undefined, { cookie, method: 'GET' });
}

/**
 * Reads an AI SDK UI message stream response chunk by chunk, as the browser does,
 * and rebuilds the assistant message with the SDK's own reader (which throws on a
 * chunk that arrives out of order, exactly like the client).
 */
export class ChatStreamReader {
  readonly chunks: UIMessageChunk[] = [];
  private readonly reader: ReadableStreamDefaultReader<string>;
  private buffer = '';
  private readonly pending: UIMessageChunk[] = [];
  private done = false;

  constructor(response: Response) {
    if (response.body === null) throw new Error('response has no body');
    this.reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  }

  /** The next chunk, or undefined at the end of the stream. */
  async next(): Promise<UIMessageChunk | undefined> {
    while (this.pending.length === 0 && !this.done) {
      const { done, value } = await this.reader.read();
      if (done) {
        this.done = true;
        break;
      }
      this.buffer += value;
      let boundary = this.buffer.indexOf('\n\n');
      while (boundary !== -1) {
        const event = this.buffer.slice(0, boundary);
        this.buffer = this.buffer.slice(boundary + 2);
        for (const line of event.split('\n')) {
          if (!line.startsWith('data: ')) continue;
          const data = line.slice('data: '.length);
          if (data === '[DONE]') continue;
          this.pending.push(JSON.parse(data) as UIMessageChunk);
        }
        boundary = this.buffer.indexOf('\n\n');
      }
    }
    const chunk = this.pending.shift();
    if (chunk !== undefined) this.chunks.push(chunk);
    return chunk;
  }

  /** Reads until a chunk matches; fails if the stream ends first. */
  async until<TYPE extends UIMessageChunk['type']>(
    type: TYPE,
  ): Promise<Extract<UIMessageChunk, { type: TYPE }>> {
    for (;;) {
      const chunk = await this.next();
      if (chunk === undefined) throw new Error(`stream ended before a "${type}" chunk`);
      if (chunk.type === type) return chunk as Extract<UIMessageChunk, { type: TYPE }>;
    }
  }

  /** Goes away as a closed tab does: the response is cancelled, nothing more is read. */
  async leave(): Promise<void> {
    this.done = true;
    await this.reader.cancel();
  }

  /** Reads to the end and returns every chunk seen. */
  async rest(): Promise<UIMessageChunk[]> {
    while ((await this.next()) !== undefined) {}
    return this.chunks;
  }

  /** The assistant message the client would hold after these chunks. */
  async message(): Promise<UIMessage> {
    await this.rest();
    const stream = new ReadableStream<UIMessageChunk>({
      start: (controller) => {
        for (const chunk of this.chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    let last: UIMessage | undefined;
    for await (const message of readUIMessageStream({ stream, terminateOnError: true })) last = message;
    if (last === undefined) throw new Error('the stream held no message');
    return structuredClone(last);
  }

  /** All text the assistant streamed. */
  text(): string {
    return this.chunks.flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.delta] : [])).join('');
  }
}
