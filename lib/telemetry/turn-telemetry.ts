import type { Span, Context as TraceContext } from '@opentelemetry/api';
import { type ParkedDecision, telemetryScope, tracingHandles } from '@toolgate/engine/telemetry';
import type { Telemetry } from 'ai';
import { observeTurn } from './metrics';
import { spanContextOf } from './trace-parent';

/** Options of {@link startTurnTelemetry}. */
export type TurnTelemetryOptions = {
  /** `toolgate.turn` for a turn, `toolgate.continuation` for carrying out a parked call. */
  name: 'toolgate.turn' | 'toolgate.continuation';
  chatId: string;
  worker: string;
  /** Which way the turn came in: a new message, the non-streaming endpoint, or a decision. */
  kind: 'stream' | 'complete' | 'continuation';
  /** The model's label (`offline`, `openai:gpt-4o-mini`). */
  model?: string;
  /** The stored `traceparent` of the call that asked, linked from this span. */
  linkTo?: string;
  /** A continuation's call and how long it waited, parked, for its decision. */
  parked?: ParkedDecision;
  /** Counts into `toolgate_turn_seconds` (a continuation's model reply is a turn of its own). Default true. */
  timed?: boolean;
};

/**
 * The AI SDK's telemetry settings of a traced turn: its own spans, through an integration
 * that records no prompt, input or output (`contentFreeTelemetry`).
 */
export type TurnAiTelemetry = {
  isEnabled: true;
  functionId: string;
  integrations: Telemetry[];
};

/** One turn's span and timing. */
export type TurnTelemetry = {
  /** Runs `work` with the turn's span as the parent of what it starts (the AI SDK's spans, tool calls). */
  run: <RESULT>(work: () => RESULT) => RESULT;
  /** For `streamText` / `generateText`'s `experimental_telemetry`; undefined while tracing is off. */
  aiTelemetry: TurnAiTelemetry | undefined;
  /** Adds an event to the turn's span. */
  event: (name: string, attributes?: Record<string, string | number | boolean>) => void;
  /** Ends the span and observes the turn's duration (once; later calls do nothing). */
  end: (options?: { error?: unknown; parked?: boolean }) => void;
};

/**
 * Starts a turn's telemetry. With tracing on, a span (linked to the asking call for a
 * continuation) whose context `run` makes active; always, the clock of
 * `toolgate_turn_seconds`. Attributes are ids and names, never message text.
 */
export function startTurnTelemetry({
  name,
  chatId,
  worker,
  kind,
  model,
  linkTo,
  parked,
  timed = true,
}: TurnTelemetryOptions): TurnTelemetry {
  const startedAt = Date.now();
  const handles = tracingHandles();
  let span: Span | undefined;
  let spanContext: TraceContext | undefined;
  if (handles !== undefined) {
    const { api, tracer } = handles;
    const linked = spanContextOf(linkTo);
    span = tracer.startSpan(
      name,
      {
        attributes: {
          'toolgate.chat.id': chatId,
          'toolgate.worker': worker,
          'toolgate.turn.kind': kind,
          ...(model !== undefined && { 'gen_ai.request.model': model }),
        },
        links: linked === undefined ? [] : [{ context: linked, attributes: { 'toolgate.link': 'asked by' } }],
      },
      api.context.active(),
    );
    spanContext = api.trace.setSpan(api.context.active(), span);
  }
  let ended = false;
  return {
    run: (work) => {
      const inScope =
        parked === undefined
          ? work
          : () => telemetryScope().run({ ...telemetryScope().getStore(), parked }, work);
      return handles !== undefined && spanContext !== undefined
        ? handles.api.context.with(spanContext, inScope)
        : inScope();
    },
    aiTelemetry:
      handles === undefined
        ? undefined
        : {
            isEnabled: true,
            functionId: `toolgate.${worker}`,
            integrations: [handles.integration],
          },
    event: (eventName, attributes) => span?.addEvent(eventName, attributes),
    end: ({ error, parked: turnParked = false } = {}) => {
      if (ended) return;
      ended = true;
      if (timed) observeTurn(Date.now() - startedAt);
      if (span === undefined) return;
      if (turnParked) span.setAttribute('toolgate.turn.parked', true);
      if (error !== undefined)
        span.setStatus({ code: 2, message: error instanceof Error ? error.name : 'error' });
      span.end();
    },
  };
}
