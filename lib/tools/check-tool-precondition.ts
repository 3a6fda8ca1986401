import type { Db } from '@/lib/db/engine';
import { toolRegistry } from './registry';
import type { ToolContext } from './tool-context';
import type { PreconditionRefusal } from './tool-descriptor';

/**
 * Whether one call of `toolName` (its validated input, the user and chat of the turn) cannot
 * succeed, by the check its tool declares: the refusal the model reads, or undefined when it
 * may go on to whoever must approve it (also when the tool declares no check, or the check
 * itself failed: the tool checks again when it runs, so asking a person is still safe).
 */
export async function checkToolPrecondition(
  db: Db,
  { toolName, input, context }: { toolName: string; input: unknown; context: ToolContext },
): Promise<PreconditionRefusal | undefined> {
  const descriptor = toolRegistry.find((candidate) => candidate.name === toolName);
  const declared = descriptor?.precondition as
    | ((db: Db, input: unknown, context: ToolContext) => Promise<PreconditionRefusal | undefined>)
    | undefined;
  if (declared === undefined) return undefined;
  try {
    return await declared(db, input, context);
  } catch (error) {
    console.error(`[toolgate] the precondition of ${toolName} failed; the call goes on to approval:`, error);
    return undefined;
  }
}
