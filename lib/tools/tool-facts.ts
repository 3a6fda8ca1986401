import type { Language } from '@/lib/ai/language';
import type { WorkerName } from './worker-names';

/** A text in every UI language. */
export type Localized = Record<Language, string>;

/**
 * What the product says about a tool, apart from the tool itself: pure data and pure
 * functions, no server imports, so the page can import them (a test checks the client
 * bundle holds no tool or database code). The tool's server half is its descriptor
 * (`tool-descriptor.ts`).
 */
export type ToolFacts<NAME extends string = string, FIELD extends string = string> = {
  /** The name the model calls it by. */
  name: NAME;
  /** The workers whose table holds it; a worker not listed cannot call it. */
  workers: readonly WorkerName[];
  /** A write changes data: the idempotency shell guards it by default. Reads always run fresh. */
  kind: 'read' | 'write';
  /** Asks a person before it runs when `AGENT_CONFIRM_TOOLS` is unset. Default false. */
  confirmByDefault?: boolean;
  /** One line saying what a call will do, for the card title. */
  summarize: (input: unknown, language: Language) => string;
  /** One line saying what a call did or found, for its folded part. */
  summarizeResult: (output: unknown, language: Language) => string;
  /**
   * The edit form's label of each input field (the schema's `.describe()` texts are for the
   * model, in English). The descriptor checks these keys against its input schema.
   */
  fieldLabels: Readonly<Record<FIELD, Localized>>;
  /** What it lets the assistant do, and an example request, for help texts. */
  capability: { action: Localized; example: Localized };
  /** The question the offline model asks when the call's required argument is missing. */
  missingArgumentQuestion?: Localized;
};

/** Declares a tool's facts; the identity function, there for the type check and the literal types. */
export function defineToolFacts<const FACTS extends ToolFacts>(facts: FACTS): FACTS {
  return facts;
}
