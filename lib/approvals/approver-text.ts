import type { Language } from '@/lib/shared/language';
import { revealHiddenCharacters, revealHiddenInSummary } from '@/lib/shared/reveal-hidden-characters';
import { summarizeToolCall } from '@/lib/tools/tool-summaries';

/*
 * What a requester writes and an approver reads — their name, the message that led to a call,
 * the call's summary — leaves through here, on every surface (the approval views and lists of
 * the API, the pages built on them, the webhook body), so a hidden character reads the same
 * everywhere: as its code point (`⟨U+202E⟩`).
 */

/** A requester's (or any person's) words as an approver reads them: hidden characters shown. */
export function approverText(text: string): string {
  return revealHiddenCharacters(text);
}

/** A call's one-line summary in every language, as an approver reads it; undefined for a tool without one. */
export function approverSummary(toolName: string, input: unknown): Record<Language, string> | undefined {
  const summary = summarizeToolCall(toolName, input);
  return summary && revealHiddenInSummary(summary);
}
