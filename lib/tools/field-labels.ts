import type { z } from 'zod';
import type { Language } from '@/lib/ai/language';

/**
 * What a person reads as the label of each input field of a tool, in every UI language.
 * Keyed by the schema's own fields, so a field added without a label is a type error.
 * (The schema's `.describe()` texts are written for the model, in English.)
 */
export type FieldLabels<SCHEMA extends z.ZodObject> = {
  [FIELD in keyof z.input<SCHEMA> & string]-?: Record<Language, string>;
};
