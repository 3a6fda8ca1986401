import type { Telemetry } from 'ai';

// The callbacks a text generation with tools calls. Left out: `executeLanguageModelCall`
// (a context for auto-instrumented provider requests, which nothing here records), the
// deprecated `onStepFinish` (the SDK calls it beside `onStepEnd`, for the same step), and
// the embed, rerank, object and speech events. The SDK skips every callback an
// integration does not have, with its copy of the event.
const callbackNames = [
  'onStart',
  'onStepStart',
  'onLanguageModelCallStart',
  'onLanguageModelCallEnd',
  'onToolExecutionStart',
  'onToolExecutionEnd',
  'onStepEnd',
  'onStepError',
  'onEnd',
  'onAbort',
  'onError',
] as const;

/**
 * The AI SDK's OpenTelemetry integration, given only the events of a text generation and
 * each event marked `recordInputs: false, recordOutputs: false`, with any error replaced
 * by one that keeps only its class: its spans carry no prompt, reply, tool input or
 * output (an error message may quote them). Marking the events here, rather than in
 * `experimental_telemetry`, spares the SDK a filtered copy of every event (and of every
 * step inside it) that the integration would not read anyway.
 */
export function contentFreeTelemetry(integration: Telemetry): Telemetry {
  const lean: Record<string, unknown> = {};
  for (const name of callbackNames) {
    const callback = integration[name] as ((event: unknown) => unknown) | undefined;
    if (typeof callback === 'function')
      lean[name] = (event: unknown) => callback.call(integration, withoutContent(event));
  }
  const { executeTool } = integration;
  if (executeTool !== undefined) lean.executeTool = executeTool.bind(integration);
  return lean as Telemetry;
}

function withoutContent(event: unknown): unknown {
  if (event === null || typeof event !== 'object' || event instanceof Error) return event;
  const fields = event as Record<string, unknown>;
  const marked: Record<string, unknown> = { ...fields, recordInputs: false, recordOutputs: false };
  if ('error' in fields) marked.error = classOnly(fields.error);
  const { toolOutput } = fields;
  if (toolOutput !== null && typeof toolOutput === 'object' && 'error' in toolOutput)
    marked.toolOutput = { ...toolOutput, error: classOnly(toolOutput.error) };
  return marked;
}

function classOnly(error: unknown): unknown {
  if (error == null) return error;
  const opaque = new Error('AI SDK operation failed');
  opaque.name = error instanceof Error ? error.name : 'Error';
  return opaque;
}
