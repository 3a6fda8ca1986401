import { z } from 'zod';
import type { Db } from '@/lib/db/engine';
import { createToolbox } from './workers';

/** A tool's input as JSON Schema: what the page needs to build an edit form. */
export type ToolInputJsonSchema = Record<string, unknown>;

/**
 * The input schema of every built-in tool as JSON Schema (the input side: what a
 * person types, before transforms such as trim), keyed by tool name. Read from the
 * tools themselves, so a form can never drift from what the server validates.
 */
export function toolInputJsonSchemas(db: Db): Record<string, ToolInputJsonSchema> {
  // The context only matters to execute, which is never called here.
  const toolbox = createToolbox(db, { userId: '' });
  const schemas: Record<string, ToolInputJsonSchema> = {};
  for (const [name, tool] of Object.entries(toolbox)) {
    schemas[name] = z.toJSONSchema(tool.inputSchema as z.ZodType, { io: 'input' }) as ToolInputJsonSchema;
  }
  return schemas;
}
