import { type ToolName, toolCatalog } from '@/lib/tools/tool-catalog';
import type { OfflineToolFacts, ToolFacts } from '@/lib/tools/tool-facts';
import type { RequestIntent } from './nlu/intent-labels';
import { requestArgument, type ToolRequest } from './nlu/understand';

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

/** A tool call planned from a request. */
export type PlannedCall = { toolName: string; input: unknown };

/** The calls one request makes: the argument fills the tool's field, one call per value of a list (order numbers). */
export function callsFor(request: ToolRequest): PlannedCall[] {
  const tool = toolOfIntent(request.intent);
  if (tool === undefined) return [];
  return inputsFor(tool, requestArgument(request)).map((input) => ({ toolName: tool.name, input }));
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
