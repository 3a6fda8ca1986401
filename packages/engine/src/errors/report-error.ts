import { newErrorReference } from './error-reference';

/**
 * Logs an error with everything it carries (message, stack, cause) under a fresh
 * reference id and returns the id: the user is shown the id, an operator finds the
 * details in the server log by it.
 */
export function reportError(error: unknown, context: string): string {
  const reference = newErrorReference();
  console.error(`[toolgate] ${reference} ${context}:`, error);
  return reference;
}
