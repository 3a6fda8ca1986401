import type { Tool } from 'ai';
import type { z } from 'zod';
import type { Db } from '@/lib/db/engine';
import type { ToolContext } from './tool-context';
import type { Localized, ToolFacts } from './tool-facts';

/** What a card may show before a person decides (declared by a tool that has one). */
export type ToolPreview = {
  lines: { label: Localized; value: string }[];
  warnings: Localized[];
  /** The call's title with what the preview looked up (e.g. the order's currency), when the input's lacks it. */
  summary?: Localized;
};

/**
 * A call refused before anyone is asked, as the model reads it: the tool's own refusal (the
 * same shape its execute answers), with `message` saying why and what would work.
 */
export type PreconditionRefusal = { refused: true; reason: string; message: string } & Record<
  string,
  unknown
>;

/**
 * A tool, declared once: its facts (name, workers, read or write, summaries, labels, help
 * texts) and its server half (input schema and factory). Every list of tools in the
 * product is derived from the registry of these (`registry.ts`).
 */
export type ToolDescriptor<
  NAME extends string = string,
  SCHEMA extends z.ZodObject = z.ZodObject,
  TOOL extends Tool = Tool,
> = ToolFacts<NAME, keyof z.input<SCHEMA> & string> & {
  /** What a call takes; the factory's tool uses this very schema. */
  inputSchema: SCHEMA;
  /** Builds the tool for one turn: the user and chat come from the server, never from the model. */
  create: (db: Db, context: ToolContext) => TOOL;
  /** Optional: what the card shows before a person decides a call (`compute-tool-preview.ts`: bounded, never fails the call). */
  preview?: (db: Db, input: z.output<SCHEMA>, context: ToolContext) => Promise<ToolPreview>;
  /**
   * Optional: a check a call must pass before any card, inbox item or mail asks a person
   * (`check-tool-precondition.ts`): a call that cannot succeed is refused at once instead.
   * The tool's execute still checks the same when it runs.
   */
  precondition?: (
    db: Db,
    input: z.output<SCHEMA>,
    context: ToolContext,
  ) => Promise<PreconditionRefusal | undefined>;
  /**
   * Optional: takes back a call that ran, within the undo window (`TOOLGATE_UNDO_WINDOW_MS`).
   * Gets the call's recorded output and runs in the transaction that marks the record undone.
   */
  undo?: (db: Db, output: unknown, context: ToolContext) => Promise<void>;
};

/**
 * Joins a tool's facts to its server half. The facts' field labels must name exactly the
 * schema's fields: a field without a label is a type error here.
 */
export function defineTool<FACTS extends ToolFacts, SCHEMA extends z.ZodObject, TOOL extends Tool>(
  facts: FACTS & { fieldLabels: Record<keyof z.input<NoInfer<SCHEMA>> & string, Localized> },
  server: Omit<ToolDescriptor<FACTS['name'], SCHEMA, TOOL>, keyof ToolFacts>,
): FACTS & ToolDescriptor<FACTS['name'], SCHEMA, TOOL> {
  return { ...facts, ...server };
}
