/*
 * Reference ids that tie what a user sees to the server log. Kept free of Node
 * APIs so the page can recognise a reference in the text it receives.
 */

// Crockford's base32 without I, L, O, U: nothing to misread when a user reads it out.
const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Matches a reference such as `ERR-7F3K2A` anywhere in a text. */
const referencePattern = /\bERR-[0-9A-HJKMNP-TV-Z]{6}\b/;

/** A fresh reference id, `ERR-` and six random characters. */
export function newErrorReference(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return `ERR-${Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join('')}`;
}

/** The first reference id in a text, if it carries one. */
export function findErrorReference(text: string | undefined): string | undefined {
  return text === undefined ? undefined : referencePattern.exec(text)?.[0];
}
