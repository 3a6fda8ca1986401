import type { RequestIntent } from '@/lib/tools/intent-labels';
import { type ToolName, toolCatalog } from '@/lib/tools/tool-catalog';
import type { OfflineToolFacts, ToolFacts } from '@/lib/tools/tool-facts';
import type { Language } from './language';
import { requestArgument, requestDetails, type ToolRequest } from './nlu/understand';

/** A built-in tool the offline model can reach by understanding a message (its facts declare `offline`). */
export type OfflineTool = ToolFacts<ToolName> & { offline: OfflineToolFacts };

/** The built-in tools the offline model reaches by understanding a message, in catalog order. */
export const offlineTools: readonly OfflineTool[] = (toolCatalog as readonly ToolFacts<ToolName>[]).filter(
  (facts): facts is OfflineTool => facts.offline !== undefined,
);

const toolsByIntent: ReadonlyMap<RequestIntent, OfflineTool> = new Map(
  offlineTools.map((tool) => [tool.offline.intent, tool]),
);

/** The tool a request of the classifier asks for, or `undefined` when no built-in tool answers its label. */
export function toolOfIntent(intent: RequestIntent): OfflineTool | undefined {
  return toolsByIntent.get(intent);
}

/** True when a request leaves out the argument its tool needs (an empty title or question, no order number). */
export function lacksArgument(request: ToolRequest): boolean {
  if (toolOfIntent(request.intent)?.offline.argument === undefined) return false;
  const argument = requestArgument(request);
  if (argument === undefined) return false;
  return typeof argument === 'string' ? argument.trim() === '' : argument.length === 0;
}

/** The first further field (a refund's amount) a request leaves out, with the question asking for it. */
export function missingDetail(
  request: ToolRequest,
): NonNullable<OfflineToolFacts['details']>[number] | undefined {
  const values = requestDetails(request);
  return toolOfIntent(request.intent)?.offline.details?.find(({ field }) => {
    const value = Object.hasOwn(values, field) ? values[field] : undefined;
    return value === undefined || value === '';
  });
}

/** A tool call planned from a request. */
export type PlannedCall = { toolName: string; input: unknown };

/**
 * The calls one request makes: the argument fills the tool's field, one call per value of a list
 * (order numbers); the further fields it read go in each call, and a field it left empty takes
 * the tool's default in the user's language.
 */
export function callsFor(request: ToolRequest, language: Language): PlannedCall[] {
  const tool = toolOfIntent(request.intent);
  if (tool === undefined) return [];
  const details: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(requestDetails(request))) {
    const fallback = tool.offline.defaults?.[field]?.[language];
    if (value !== undefined && value !== '') details[field] = value;
    else if (fallback !== undefined) details[field] = fallback;
  }
  return inputsFor(tool, requestArgument(request)).map((input) => ({
    toolName: tool.name,
    input: { ...input, ...details },
  }));
}

/** The inputs a tool gets from an argument read from a message. */
export function inputsFor(tool: OfflineTool, argument: string | readonly string[] | undefined): object[] {
  const field = tool.offline.argument?.field;
  if (field === undefined || argument === undefined) return [{}];
  return (typeof argument === 'string' ? [argument] : argument).map((value) => ({ [field]: value }));
}

/** The request's argument as a reply quotes it: several values joined by ", ", '' for none. */
export function quotedArgument(request: ToolRequest): string {
  const argument = requestArgument(request) ?? '';
  return typeof argument === 'string' ? argument : argument.join(', ');
}
