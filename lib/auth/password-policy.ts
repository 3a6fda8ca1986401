import commonPasswords from './common-passwords.json';

/** Shortest password accepted at sign-up or on a change. */
export const minPasswordLength = 10;

/** Longest password accepted (hashing a longer one is work an attacker would choose). */
export const maxPasswordLength = 128;

/*
 * common-passwords.json: widely used passwords of 8+ characters — digit runs, keyboard
 * walks, and common words with the suffixes people add (`password123`, `welcome2025`),
 * compared lower-cased. A short list on purpose: it stops the first guesses of an
 * attacker, and length does the rest.
 */
const commonPasswordSet: ReadonlySet<string> = new Set(commonPasswords);

/** Why `password` is refused, in words for the person choosing it, or undefined when it is fine. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < minPasswordLength)
    return `Choose a password of at least ${minPasswordLength} characters`;
  if (password.length > maxPasswordLength)
    return `Choose a password of at most ${maxPasswordLength} characters`;
  if (commonPasswordSet.has(password.toLowerCase()) || new Set(password).size < 4)
    return 'This password is too common and easy to guess; choose another';
  return undefined;
}
