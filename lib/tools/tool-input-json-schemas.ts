import { z } from 'zod';
import { toolRegistry } from './registry';

/** A tool's input as JSON Schema: what the page needs to build an edit form. */
export type ToolInputJsonSchema = Record<string, unknown>;

/**
 * The input schema of every built-in tool as JSON Schema (the input side: what a
 * person types, before transforms such as trim), keyed by tool name. Read from the
 * descriptors' own schemas, so a form can never drift from what the server validates.
 */
export function toolInputJsonSchemas(): Record<string, ToolInputJsonSchema> {
  return Object.fromEntries(
    toolRegistry.map((descriptor) => [
      descriptor.name,
      z.toJSONSchema(descriptor.inputSchema, { io: 'input' }) as ToolInputJsonSchema,
    ]),
  );
}
