import type { Language } from '@/lib/shared/language';
import type { RequestIntent } from './intent-labels';
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
  /**
   * Whether its output may steer a write without a person seeing where the values came from:
   * `trusted` for the app's own rows and the operator's knowledge base, `untrusted` for text
   * an outsider can write (the engine's provenance).
   */
  trust: 'trusted' | 'untrusted';
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
  /** How the built-in offline model reaches it; without this, only by a `/tool` command. */
  offline?: OfflineToolFacts<FIELD>;
};

/**
 * What the built-in offline model (`lib/ai/offline-model.ts`) needs to call a tool and answer
 * after it. A hosted model reads the schema instead.
 */
export type OfflineToolFacts<FIELD extends string = string> = {
  /** The label its classifier gives a request for this tool (`lib/tools/intent-labels.ts`). */
  intent: RequestIntent;
  /**
   * The input field the request's argument fills (a title, a question, an order number: one
   * call per order number when a message names several), and the question the model asks when
   * the message leaves it out. Absent for a tool that takes no input.
   */
  argument?: { field: FIELD; question: Localized };
  /**
   * Further input fields the request must fill before a call, each with the question asked when
   * the message leaves it out (after `argument`'s, one at a time, in this order). The answer to
   * such a question completes the request made before it.
   */
  details?: readonly { field: FIELD; question: Localized }[];
  /** How a reply says that a declined or expired call did nothing (default: "nothing was created" for a write). */
  nothingDone?: Localized;
  /** What a call fills in for a field the message gives no value for, in the user's language (a refund's reason). */
  defaults?: Readonly<Partial<Record<FIELD, Localized>>>;
  /**
   * How a reply quotes a request for it that this worker cannot make, given the request's
   * argument (several values joined by ", "; '' for none). Default: the argument itself.
   */
  quote?: (argument: string, language: Language) => string;
  /** The answer after a successful call; `summarizeResult` is the card's one line. Default: the output as JSON. */
  reply?: (output: Readonly<Record<string, unknown>>, language: Language) => string;
  /** Called with the whole message when the message asks for nothing else but reads like a question. */
  answersQuestions?: boolean;
  /** The input the `/tool` command's usage reply shows (the first tool in the catalog with one is the example). */
  commandExample?: Readonly<Partial<Record<FIELD, unknown>>>;
};

/** Declares a tool's facts; the identity function, there for the type check and the literal types. */
export function defineToolFacts<const FACTS extends ToolFacts>(facts: FACTS): FACTS {
  return facts;
}
