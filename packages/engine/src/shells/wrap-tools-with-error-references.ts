import type { ToolSet } from 'ai';
import { PublicError } from '../errors/public-error';
import { reportError } from '../errors/report-error';
import { isAsyncIterable, wrapExecute } from './wrap-execute';

/** Options of {@link wrapToolsWithErrorReferences}. */
export type ErrorReferenceShellOptions = {
  /** Logs an error and returns its reference id. Default: `console.error` under a fresh id. */
  report?: (error: unknown, context: string) => string;
  /** Names of the tools to cover. Default: every tool in the table. */
  tools?: Iterable<string>;
};

/**
 * Replaces every error a tool or an inner shell throws (a failed query, a store
 * outage) with a {@link PublicError}: a short message with a reference id, while
 * the original goes to the server log under that id. Internal text thus never
 * reaches the model, the stream, the card or the saved chat.
 *
 * Put it just inside the audit shell: outside rate limit, approval and idempotency,
 * so their store failures are covered too. Only `execute` is replaced.
 */
export function wrapToolsWithErrorReferences<TOOLS extends ToolSet>(
  table: TOOLS,
  { report = reportError, tools = Object.keys(table) }: ErrorReferenceShellOptions = {},
): TOOLS {
  return wrapExecute(table, tools, (execute, toolName) => (input, options) => {
    const replace = (error: unknown): never => {
      if (error instanceof PublicError) throw error;
      // An error may say what a user can be told (an MCP server that is down); the rest is logged.
      const summary = (error as { publicSummary?: unknown } | null)?.publicSummary;
      throw new PublicError(
        report(error, `tool ${toolName} failed`),
        typeof summary === 'string' ? `${toolName} failed: ${summary}` : `${toolName} failed`,
      );
    };
    let result: unknown;
    try {
      result = execute(input, options);
    } catch (error) {
      return replace(error);
    }
    if (isAsyncIterable(result)) return replaceStreamErrors(result, replace);
    return Promise.resolve(result).catch(replace);
  });
}

async function* replaceStreamErrors(
  stream: AsyncIterable<unknown>,
  replace: (error: unknown) => never,
): AsyncGenerator<unknown> {
  try {
    yield* stream;
  } catch (error) {
    replace(error);
  }
}
