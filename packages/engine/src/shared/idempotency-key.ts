import { stableStringify } from './stable-stringify';

/**
 * The key under which one write is remembered: `scope::toolName::stableStringify(args)`.
 *
 * The scope (usually the chat id) comes first so the same arguments in two
 * sessions stay two pieces of business. `args` must be the validated input the
 * AI SDK hands to `execute`, not the model's raw text, so that formatting noise
 * (key order, omitted optional fields) never makes a repeat look new.
 */
export function idempotencyKey(scope: string, toolName: string, args: unknown): string {
  return `${scope}::${toolName}::${stableStringify(args)}`;
}
