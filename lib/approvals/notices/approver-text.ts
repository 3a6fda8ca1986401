import {
  revealControlCharacters,
  revealHiddenCharacters,
  revealHiddenInSummary,
} from '@toolgate/engine/client';
import type { Language } from '@/lib/shared/language';
import { summarizeToolCall } from '@/lib/tools/tool-summaries';

/*
 * What a requester writes and an approver reads — their name, the message that led to a call,
 * the call's summary — leaves through here, on every surface (the approval views and lists of
 * the API, the pages built on them, the webhook body), so a hidden character reads the same
 * everywhere: as its code point (`⟨U+202E⟩`). Names read by id (`userNamesById`, in the life
 * cycle's rows, which sit below this room) are shown by the same engine helper.
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

/** Schemes a mail reader turns into a link, and the spelling that keeps it from doing so. */
const linkSchemes = /\b(https?|ftps?|file|wss?)(:\/\/)|\b(mailto|javascript|data|tel|sms|callto|news|irc):/gi;
/**
 * A dot (or a look-alike a reader treats as one) between a letter or digit and a label with a
 * letter: a host name (`evil.example`, `www.evil.example`), not an amount (`80.50`).
 */
const hostDot = /(?<=[\p{L}\p{N}_-])[.\u3002\uff0e\uff61](?=[A-Za-z0-9-]*[A-Za-z])/gu;

/**
 * Words a requester chose (their name, a title, a reason) as an approver's mail carries them:
 * one line (control characters as code points), and no link a mail reader would make
 * clickable — schemes and host names defanged (`hxxps://evil[.]example`). The mail's own link
 * to the approval page is then the only one in it.
 */
export function approverMailText(text: string): string {
  return revealControlCharacters(text)
    .replace(linkSchemes, (_match, scheme?: string, slashes?: string, bare?: string) => {
      if (bare !== undefined) return `${bare}[:]`;
      const named = scheme ?? '';
      return /^https?$/i.test(named) ? `${named.replace(/t/gi, 'x')}${slashes}` : `${named}[:]//`;
    })
    .replace(hostDot, (dot) => `[${dot}]`);
}
