import type { Language } from '@/lib/shared/language';
import { toolFactsOf } from './tool-catalog';

/*
 * Pure functions of a call's input and output, with no server state: the chat page imports
 * them too, to title and fold tool parts that never passed an approval card.
 */

/** A call's summary in both languages, or undefined for a tool without one (MCP tools). */
export function summarizeToolCall(toolName: string, input: unknown): Record<Language, string> | undefined {
  const facts = toolFactsOf(toolName);
  return facts && { en: facts.summarize(input, 'en'), zh: facts.summarize(input, 'zh') };
}

/** A call's result in one line, in both languages, or undefined for a tool without one (MCP tools). */
export function summarizeToolResult(toolName: string, output: unknown): Record<Language, string> | undefined {
  const facts = toolFactsOf(toolName);
  return facts && { en: facts.summarizeResult(output, 'en'), zh: facts.summarizeResult(output, 'zh') };
}
