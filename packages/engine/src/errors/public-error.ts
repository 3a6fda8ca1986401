import { reportError } from './report-error';

/**
 * An error whose message is safe to show a user and to save in a chat: a short
 * sentence and a reference id, the details having gone to the server log. The
 * model reads the same message, so it cannot repeat internal text either.
 */
export class PublicError extends Error {
  override name = 'PublicError';
  readonly reference: string;

  constructor(reference: string, what = 'The request failed') {
    super(`${what} (reference ${reference}); the details are in the server log.`);
    this.reference = reference;
  }
}

/**
 * Logs an error and returns the text a client may see: a {@link PublicError}'s own
 * message (already logged where it was made), for anything else a new reference.
 * Fit for the UI message stream's `onError`, which turns errors into `errorText`.
 */
export function publicErrorText(error: unknown): string {
  if (error instanceof PublicError) return error.message;
  return new PublicError(reportError(error, 'error in a chat turn')).message;
}
