// The part of autocannon 8's programmatic API the benchmarks use (it ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  type RequestData = { method?: string; path?: string; headers?: Record<string, string>; body?: string };

  type Options = {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    timeout?: number;
    requests?: Array<RequestData & { setupRequest?: (request: RequestData) => RequestData }>;
  };

  type Result = {
    requests: { total: number; average: number };
    latency: { p50: number; p99: number; average: number };
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
  };

  type Instance = EventEmitter &
    PromiseLike<Result> & {
      on(
        event: 'response',
        listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void,
      ): Instance;
    };

  function autocannon(options: Options): Instance;
  export default autocannon;
}
