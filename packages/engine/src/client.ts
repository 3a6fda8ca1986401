/* Helpers with no Node APIs and no state, safe in a browser bundle. */
export { mailboxOf, normalizeEmail } from './shared/normalize-email';
export {
  hasHiddenCharacters,
  revealControlCharacters,
  revealHiddenCharacters,
  revealHiddenInSummary,
} from './shared/reveal-hidden-characters';
