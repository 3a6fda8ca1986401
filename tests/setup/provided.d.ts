// Values handed from globalSetup (tests/setup/*.ts) to tests through `inject`.
declare module 'vitest' {
  export interface ProvidedContext {
    /** `redis://127.0.0.1:<port>` of the private redis-server started for the run. */
    redisUrl: string;
    /** `postgres://postgres@127.0.0.1:<port>/postgres`: the admin URL of the throwaway cluster. */
    postgresUrl: string;
  }
}

export {};
