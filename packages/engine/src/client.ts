/* Helpers with no Node APIs and no state, safe in a browser bundle. */

export { auditOutcomeOfDenial, type DenialReason, denialReasons } from './decisions/decision-vocabulary';
export { findErrorReference, newErrorReference } from './errors/error-reference';
export { mailboxOf, normalizeEmail } from './shared/normalize-email';
export {
  hasHiddenCharacters,
  revealControlCharacters,
  revealHiddenCharacters,
  revealHiddenInSummary,
  withoutHiddenCharacters,
} from './shared/reveal-hidden-characters';
export {
  denialNoteOf,
  isEditedOutput,
  isToolDenial,
  type ToolDenial,
} from './shells/wrap-tools-with-approval';
export { isToolRateLimited, type ToolRateLimited } from './shells/wrap-tools-with-rate-limit';
