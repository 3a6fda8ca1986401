import { UI_MESSAGE_STREAM_HEADERS } from 'ai';

/**
 * The headers of a chat turn's UI message stream: the AI SDK's, and `no-transform`, so no
 * proxy, and not Next.js's own response compression, re-encodes it. Compressed, each chunk
 * would wait for the compressor's round trip through the thread pool, behind whatever the
 * server does next, before it reached the socket; it gains little, every chunk being flushed
 * on its own. The approval event stream sends the same cache-control.
 */
export const chatStreamHeaders: Readonly<Record<string, string>> = {
  ...UI_MESSAGE_STREAM_HEADERS,
  'cache-control': 'no-cache, no-transform',
};
