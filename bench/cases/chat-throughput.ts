import { join } from 'node:path';
import autocannon from 'autocannon';
import { sessionHeaders, startApp } from '../support/next-app';
import { median, quantile, round } from '../support/stats';
import type { BenchCase, BenchContext, BenchResult } from '../support/types';
import { readUIChunks, userMessage } from '../support/ui-stream';

/** One kind of chat turn: what the user says, to which worker, and what the stream must contain. */
export type TurnKind = { name: string; worker: string; text: (index: number) => string; expectTool: boolean };

export const turnKinds: TurnKind[] = [
  { name: 'no-tool', worker: 'assistant', text: () => 'hello', expectTool: false },
  { name: 'read-tool', worker: 'order', text: () => 'where is my order A1001', expectTool: true },
  // A write with fresh arguments each time, so idempotency never answers from its cache.
  { name: 'write-tool', worker: 'assistant', text: (index) => `add a todo: item ${index}`, expectTool: true },
];

type Side = 'baseline' | 'subject';

/** Two routes measured against each other, and how the row reads. */
type Pairing = {
  /** The row's name after `chat-throughput/`. */
  name: string;
  routes: Record<Side, string>;
  labels: Record<Side, string>;
  /** The target in words and its test on the ratios; absent: the ratio is reported, nothing is judged. */
  target?: { text: string; met: (throughputRatio: number, p99Ratio: number) => boolean };
};

/** Every shell against the same turn without shells (same routing, history and persistence). */
const shellsPairing = (kind: TurnKind): Pairing => ({
  name: kind.name,
  routes: { baseline: '/api/bench/baseline', subject: '/api/chat' },
  labels: { baseline: '/api/bench/baseline (no shells)', subject: '/api/chat (all shells)' },
  target: {
    text: 'throughput ≥ 0.95 × baseline and p99 ≤ 1.1 × baseline',
    met: (throughputRatio, p99Ratio) => throughputRatio >= 0.95 && p99Ratio <= 1.1,
  },
});

/**
 * The whole hardened turn (session, database, routing, history, persistence, resumable stream,
 * shells) against the AI SDK alone in the same build: `streamText` + `toUIMessageStreamResponse`,
 * same offline model, no session, no database. Reported as a ratio; there is no target, it says
 * what the product costs on top of the SDK.
 */
const barePairing: Pairing = {
  name: 'hardened-vs-bare-sdk',
  routes: { baseline: '/api/bench/bare', subject: '/api/chat' },
  labels: { baseline: '/api/bench/bare (streamText only)', subject: '/api/chat (hardened turn)' },
};

let requestCounter = 0;

/** A fresh chat (new id, new arguments) per request, as a new conversation would be. */
function chatBody(kind: TurnKind): string {
  requestCounter += 1;
  return JSON.stringify({
    id: `bench-${process.pid}-${requestCounter}`,
    worker: kind.worker,
    messages: [userMessage(kind.text(requestCounter))],
  });
}

/** One request through `path`, read to the end; throws unless the turn did what `kind` expects. */
export async function checkTurn(url: string, path: string, kind: TurnKind): Promise<void> {
  const response = await fetch(url + path, {
    method: 'POST',
    headers: sessionHeaders(url),
    body: chatBody(kind),
  });
  if (response.status !== 200)
    throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  const types = new Set<string>();
  for await (const chunk of readUIChunks(response)) types.add(chunk.type);
  const problems = [
    types.has('finish') ? '' : 'no finish chunk',
    types.has('error') ? 'an error chunk' : '',
    kind.expectTool && !types.has('tool-output-available') ? 'no tool-output-available chunk' : '',
    !kind.expectTool && types.has('tool-input-available') ? 'an unexpected tool call' : '',
  ].filter(Boolean);
  if (problems.length > 0) {
    throw new Error(`${path} (${kind.name}) streamed ${problems.join(', ')}: ${[...types].join(' ')}`);
  }
}

export type Round = { requests: number; seconds: number; latencies: number[]; failures: number };

/** `connections` clients hammering `path` for `seconds`; every response's latency is kept. */
export async function hammer(url: string, path: string, kind: TurnKind, seconds: number): Promise<Round> {
  const latencies: number[] = [];
  let failures = 0;
  const instance = autocannon({
    url,
    connections: 10,
    duration: seconds,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        path,
        headers: sessionHeaders(url),
        setupRequest: (request) => ({ ...request, body: chatBody(kind) }),
      },
    ],
  });
  instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
    if (statusCode === 200) latencies.push(responseTimeMs);
    else failures += 1;
  });
  const result = await instance;
  return {
    requests: latencies.length,
    seconds: result.duration,
    latencies,
    failures: failures + result.errors + result.timeouts,
  };
}

function perSecond(round: Round): number {
  return round.latencies.length / round.seconds;
}

/** Sums rounds of one side into throughput and latency percentiles over every response. */
export function summarize(rounds: Round[]) {
  const latencies = rounds.flatMap((round) => round.latencies);
  const seconds = rounds.reduce((sum, round) => sum + round.seconds, 0);
  return {
    requestsPerSecond: latencies.length / seconds,
    p50: median(latencies),
    p99: quantile(latencies, 0.99),
    requests: latencies.length,
    failures: rounds.reduce((sum, round) => sum + round.failures, 0),
  };
}

async function measurePair(
  url: string,
  kind: TurnKind,
  pairing: Pairing,
  { quick, log }: BenchContext,
): Promise<BenchResult> {
  const { routes } = pairing;
  for (const side of ['baseline', 'subject'] as const) await checkTurn(url, routes[side], kind);
  // Warm-up: the first requests compile routes and fill the JIT; they are not measured.
  for (const side of ['baseline', 'subject'] as const) await hammer(url, routes[side], kind, quick ? 1 : 2);
  // ABBA order, three times (quick: ABBA): a linear drift in machine speed hits both
  // sides equally. The verdict is on the median of the per-pair ratios (round i of one
  // side against round i of the other), so one noisy round cannot decide it; the
  // spread of those ratios is printed beside it.
  const abba: Side[] = ['baseline', 'subject', 'subject', 'baseline'];
  const order: Side[] = quick ? abba : [...abba, ...abba, ...abba];
  const roundSeconds = quick ? 1 : 2;
  const roundsBySide: Record<Side, Round[]> = { baseline: [], subject: [] };
  for (const side of order) {
    log(`chat throughput: ${pairing.name} ${side} ${roundSeconds}s`);
    roundsBySide[side].push(await hammer(url, routes[side], kind, roundSeconds));
  }
  const baseline = summarize(roundsBySide.baseline);
  const subject = summarize(roundsBySide.subject);
  const pairs = roundsBySide.subject.map((subjectRound, index) => ({
    throughput: perSecond(subjectRound) / perSecond(roundsBySide.baseline[index]),
    p99: quantile(subjectRound.latencies, 0.99) / quantile(roundsBySide.baseline[index].latencies, 0.99),
  }));
  const throughputRatio = median(pairs.map((pair) => pair.throughput));
  const p99Ratio = median(pairs.map((pair) => pair.p99));
  const spread = (values: number[]) => `${round(Math.min(...values))}–${round(Math.max(...values))}`;
  const figures = (side: ReturnType<typeof summarize>) => ({
    requestsPerSecond: round(side.requestsPerSecond),
    p50Ms: round(side.p50),
    p99Ms: round(side.p99),
    requests: side.requests,
    failures: side.failures,
  });
  const failures = subject.failures + baseline.failures;
  return {
    name: `chat-throughput/${pairing.name}`,
    baseline: { label: pairing.labels.baseline, ...figures(baseline) },
    subject: {
      label: pairing.labels.subject,
      ...figures(subject),
      p99Ratio: round(p99Ratio),
      ratioSpread: spread(pairs.map((pair) => pair.throughput)),
      p99RatioSpread: spread(pairs.map((pair) => pair.p99)),
    },
    ratio: round(throughputRatio),
    ratioOf: 'median over paired rounds of requests/s, subject ÷ baseline (10 connections)',
    target: pairing.target?.text ?? 'none: reported as a ratio',
    pass:
      pairing.target === undefined ? null : pairing.target.met(throughputRatio, p99Ratio) && failures === 0,
    ...(pairing.target === undefined && { notes: `turn: ${kind.name}; failures: ${failures}` }),
  };
}

/**
 * Chat turns per second over HTTP against the production
 * build, `/api/chat` (every shell) against `/api/bench/baseline` (same model,
 * worker tools and persistence, no shells), for a turn without tools, with a
 * read tool and with a write tool; and the hardened turn against the AI SDK
 * alone (`/api/bench/bare`). Approvals are off (`AGENT_CONFIRM_TOOLS=`)
 * so writes do not wait for a person. One server serves both routes; rounds alternate.
 */
export const chatThroughput: BenchCase = async (context) => {
  const server = await startApp({
    databasePath: join(context.scratch, 'throughput.db'),
    environment: { AGENT_CONFIRM_TOOLS: '' },
  });
  try {
    const rows: BenchResult[] = [];
    for (const kind of turnKinds)
      rows.push(await measurePair(server.url, kind, shellsPairing(kind), context));
    // The bare SDK route has no tools: the turn without tools is the one both can answer.
    const noTool = turnKinds.find((kind) => !kind.expectTool);
    if (noTool !== undefined) rows.push(await measurePair(server.url, noTool, barePairing, context));
    return rows;
  } finally {
    await server.stop();
  }
};
