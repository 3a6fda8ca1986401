// Values handed from globalSetup (tests/setup/redis-server.ts) to tests through `inject`.
declare module 'vitest' {
  export interface ProvidedContext {
    /** `redis://127.0.0.1:<port>` of the private redis-server started for the run. */
    redisUrl: string;
  }
}

export {};
