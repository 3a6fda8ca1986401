/**
 * The process's Prometheus series, written in the text exposition format by hand: three
 * series do not need a client library. Counters and histograms count what this process
 * saw since it started (Prometheus's `rate()` and `increase()` handle restarts); the
 * pending-approvals gauge is read from the database at scrape time, so it holds across
 * instances and restarts.
 */

/** Upper bounds (seconds) of the approval-wait buckets: people take seconds to an hour. */
const approvalWaitBuckets = [1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];
/** Upper bounds (seconds) of the turn-duration buckets. */
const turnBuckets = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

type Histogram = { buckets: readonly number[]; counts: number[]; sum: number; count: number };

type Metrics = {
  toolCallsByLabels: Map<string, { tool: string; outcome: string; count: number }>;
  webhookEventsDroppedByBudget?: Map<string, number>;
  approvalWait: Histogram;
  turn: Histogram;
};

const histogram = (buckets: readonly number[]): Histogram => ({
  buckets,
  counts: buckets.map(() => 0),
  sum: 0,
  count: 0,
});

// On globalThis: the start-up hook and each route are bundled apart, each with its own
// copy of this module, and they must count into one set of series.
const globalForMetrics = globalThis as typeof globalThis & { __toolgateMetrics?: Metrics };

function metrics(): Metrics {
  globalForMetrics.__toolgateMetrics ??= {
    toolCallsByLabels: new Map(),
    approvalWait: histogram(approvalWaitBuckets),
    turn: histogram(turnBuckets),
  };
  return globalForMetrics.__toolgateMetrics;
}

function observe(target: Histogram, value: number): void {
  const seconds = Math.max(0, value);
  target.sum += seconds;
  target.count += 1;
  target.buckets.forEach((bound, index) => {
    if (seconds <= bound) target.counts[index] += 1;
  });
}

/** Counts one tool call under its audit outcome (`toolgate_tool_calls_total`). */
export function countToolCall(tool: string, outcome: string): void {
  const key = JSON.stringify([tool, outcome]);
  const series = metrics().toolCallsByLabels;
  const entry = series.get(key);
  if (entry === undefined) series.set(key, { tool, outcome, count: 1 });
  else entry.count += 1;
}

/** Counts one approval webhook event not queued because `budget` was spent (`toolgate_webhook_events_dropped_total`). */
export function countDroppedWebhookEvent(budget: string): void {
  const state = metrics();
  state.webhookEventsDroppedByBudget ??= new Map();
  state.webhookEventsDroppedByBudget.set(budget, (state.webhookEventsDroppedByBudget.get(budget) ?? 0) + 1);
}

/** How long one call waited for a person, from its card to the answer, the deadline or Stop. */
export function observeApprovalWait(milliseconds: number): void {
  observe(metrics().approvalWait, milliseconds / 1000);
}

/** How long one turn ran, from its start to the end of its stream. */
export function observeTurn(milliseconds: number): void {
  observe(metrics().turn, milliseconds / 1000);
}

/** A label value in the text format: backslash, double quote and newline escaped. */
const labelValue = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

function histogramLines(name: string, help: string, { buckets, counts, sum, count }: Histogram): string[] {
  return [
    `# HELP ${name} ${help}`,
    `# TYPE ${name} histogram`,
    ...buckets.map((bound, index) => `${name}_bucket{le="${bound}"} ${counts[index]}`),
    `${name}_bucket{le="+Inf"} ${count}`,
    `${name}_sum ${sum}`,
    `${name}_count ${count}`,
  ];
}

/** Every series in the Prometheus text format (version 0.0.4), the gauge from `approvalsPending`. */
export function renderMetrics({ approvalsPending }: { approvalsPending: number }): string {
  const { toolCallsByLabels, approvalWait, turn, webhookEventsDroppedByBudget } = metrics();
  const calls = [...toolCallsByLabels.values()].sort(
    (a, b) => a.tool.localeCompare(b.tool) || a.outcome.localeCompare(b.outcome),
  );
  return `${[
    '# HELP toolgate_tool_calls_total Tool calls by tool and audit outcome, counted by this process.',
    '# TYPE toolgate_tool_calls_total counter',
    ...calls.map(
      ({ tool, outcome, count }) =>
        `toolgate_tool_calls_total{tool="${labelValue(tool)}",outcome="${labelValue(outcome)}"} ${count}`,
    ),
    '# HELP toolgate_approvals_pending Approvals waiting for a person, read from the database.',
    '# TYPE toolgate_approvals_pending gauge',
    `toolgate_approvals_pending ${approvalsPending}`,
    ...histogramLines(
      'toolgate_approval_wait_seconds',
      'How long calls waited for a person: from the card to the answer, the deadline or Stop.',
      approvalWait,
    ),
    ...histogramLines('toolgate_turn_seconds', 'How long chat turns ran, start to end of stream.', turn),
    '# HELP toolgate_webhook_events_dropped_total Approval webhook events not queued: a requester or an address spent its budget.',
    '# TYPE toolgate_webhook_events_dropped_total counter',
    ...[...(webhookEventsDroppedByBudget ?? new Map<string, number>())]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([budget, count]) => `toolgate_webhook_events_dropped_total{budget="${labelValue(budget)}"} ${count}`,
      ),
  ].join('\n')}\n`;
}
