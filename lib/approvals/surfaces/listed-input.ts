import { stableStringify } from '@toolgate/engine';
import { inputDigestOf } from '@toolgate/engine/shells';
import type { Language } from '@/lib/shared/language';
import { approverSummary } from '../notices/approver-text';

/** What a listed approval shows of its call's input besides the input itself. */
export type ListedInput = {
  /** `inputDigestOf(input)`. */
  inputDigest: string;
  /** `approverSummary(toolName, input)`. */
  summary?: Record<Language, string>;
};

/** How many calls are remembered (the oldest remembered is dropped past it). */
const rememberedCalls = 2_000;
/** Longer canonical inputs are worked out every time (a key of this map is kept in memory). */
const longestRememberedInput = 4_096;

const listedByCall = new Map<string, ListedInput>();

/**
 * The input digest and the approver's summary of a call, remembered by its tool and a JSON
 * text of its input: an inbox page shows 50 of each, and an approver's list is read again and
 * again with the same calls on it. The text is `inputText` when the caller has the one the
 * input was parsed from (the stored column: no work), else the input's canonical JSON (a
 * fifth of the cost of hashing it). Both answers are functions of the tool and the input that
 * text parses to, so what is remembered is never stale (two texts of one input are only two
 * entries). Each answer has its own summary object.
 */
export function listedInputOf(
  toolName: string,
  input: unknown,
  inputText: string = stableStringify(input),
): ListedInput {
  if (inputText.length > longestRememberedInput) return workedOut(toolName, input);
  const key = `${toolName}\n${inputText}`;
  let listed = listedByCall.get(key);
  if (listed === undefined) {
    listed = workedOut(toolName, input);
    if (listedByCall.size >= rememberedCalls) {
      const oldest = listedByCall.keys().next().value;
      if (oldest !== undefined) listedByCall.delete(oldest);
    }
    listedByCall.set(key, listed);
  }
  return listed.summary === undefined
    ? { inputDigest: listed.inputDigest }
    : { inputDigest: listed.inputDigest, summary: { ...listed.summary } };
}

function workedOut(toolName: string, input: unknown): ListedInput {
  const summary = approverSummary(toolName, input);
  return summary === undefined
    ? { inputDigest: inputDigestOf(input) }
    : { inputDigest: inputDigestOf(input), summary };
}
