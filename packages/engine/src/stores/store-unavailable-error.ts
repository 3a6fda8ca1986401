/**
 * Thrown (as a rejection) when a shared store cannot reach its backend.
 *
 * A guarded write is never run unprotected: when Redis cannot be asked whether
 * a call already ran, the call fails instead of executing. `code` lets callers
 * tell this apart from a failure of the tool itself.
 */
export class StoreUnavailableError extends Error {
  readonly code = 'STORE_UNAVAILABLE' as const;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}
