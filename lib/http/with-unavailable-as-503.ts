import { StoreUnavailableError } from '@toolgate/engine';
import { isDatabaseUnavailableError } from '@/lib/db/database-unavailable';
import { jsonError } from './json';

/**
 * The 503 for an outage of a backing service (the database, Redis), or undefined for any
 * other error. An outage is not a bug: the client may retry, and nothing was written.
 */
export function unavailableResponse(error: unknown): Response | undefined {
  if (error instanceof StoreUnavailableError) {
    return jsonError(
      503,
      'A backing service is unavailable right now; nothing was changed, try again shortly',
    );
  }
  if (isDatabaseUnavailableError(error)) {
    console.error('[toolgate] database unavailable:', (error as Error).message);
    return jsonError(503, 'The database is unavailable right now; nothing was changed, try again shortly');
  }
  return undefined;
}

/** Wraps a route handler so that an outage of the database or Redis answers 503 `{ error }`, never 500. */
export function withUnavailableAs503<ARGUMENTS extends unknown[]>(
  handler: (...args: ARGUMENTS) => Promise<Response> | Response,
): (...args: ARGUMENTS) => Promise<Response> {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (error) {
      const response = unavailableResponse(error);
      if (response !== undefined) return response;
      throw error;
    }
  };
}
