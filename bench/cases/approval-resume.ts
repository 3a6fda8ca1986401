import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { type AppServer, serverProfileDirectory, sessionHeaders, startApp } from '../support/next-app';
import { median, nowMs, quantile, round, signTestPValue } from '../support/stats';
import type { BenchCase, BenchResult } from '../support/types';
import { readUIChunks, userMessage } from '../support/ui-stream';

function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: sessionHeaders(url),
    body: JSON.stringify(body),
  });
}

async function expectStatus(response: Response, status: number, what: string): Promise<void> {
  if (response.status !== status)
    throw new Error(`${what} answered ${response.status}: ${await response.text()}`);
}

/** Reads `chunks` until one of type `type` arrives; throws if the stream ends first. */
async function nextOfType<TYPE extends UIMessageChunk['type']>(
  chunks: AsyncGenerator<UIMessageChunk>,
  type: TYPE,
): Promise<Extract<UIMessageChunk, { type: TYPE }>> {
  const seen: string[] = [];
  for (;;) {
    const { value, done } = await chunks.next();
    if (done) throw new Error(`The stream ended before a ${type} chunk; it carried: ${seen.join(' ')}`);
    if (value.type === 'error') throw new Error(`The stream carried an error: ${value.errorText}`);
    seen.push(value.type);
    if (value.type === type) return value as Extract<UIMessageChunk, { type: TYPE }>;
  }
}

function streamOf(chunks: UIMessageChunk[]): ReadableStream<UIMessageChunk> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function drain(chunks: AsyncGenerator<UIMessageChunk>): Promise<void> {
  for await (const _chunk of chunks);
}

/**
 * The measured spans of the rounds, per path, in microseconds of the monotonic clock
 * (`process.hrtime`), the clock a V8 CPU profile's timestamps use: a profiled run
 * (`--cpu-prof`) writes them beside the server's profile, so `bench/cpu-profile-summary.mjs
 * --windows=… --window=live` sums only the samples taken while a decision was under way.
 */
type Windows = Record<'live' | 'liveAgainst' | 'resubmit' | 'parked', [number, number][]>;
let windows: Windows | undefined;

function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

function recordWindow(path: keyof Windows, startMicros: number): void {
  windows?.[path].push([startMicros, monotonicMicros()]);
}

/**
 * Ours: the turn waits inside the open response. Measured from sending
 * `POST /api/chat/approve` to the `tool-output-available` chunk of that response.
 */
async function ourResume(server: AppServer, index: number, path: keyof Windows = 'live'): Promise<number> {
  const chatId = `resume-ours-${process.pid}-${index}`;
  const response = await post(`${server.url}/api/chat`, {
    id: chatId,
    worker: 'refund',
    messages: [userMessage(`create a ticket: resume bench ${index}`)],
  });
  await expectStatus(response, 200, '/api/chat');
  const chunks = readUIChunks(response);
  const request = await nextOfType(chunks, 'tool-approval-request');
  const startMicros = monotonicMicros();
  const start = nowMs();
  const decision = post(`${server.url}/api/chat/approve`, {
    approvalId: request.approvalId,
    sessionId: chatId,
    approved: true,
  });
  const output = await nextOfType(chunks, 'tool-output-available');
  const elapsed = nowMs() - start;
  recordWindow(path, startMicros);
  await expectStatus(await decision, 200, '/api/chat/approve');
  if (output.toolCallId !== request.toolCallId) throw new Error('The output belongs to another call');
  await drain(chunks);
  return elapsed;
}

/**
 * The parked path: the client leaves while the card waits, the turn parks (it leaves
 * the server's memory), and the decision continues it from the database. Measured as
 * the page does it: from sending `POST /api/chat/approve` to the `tool-output-available`
 * chunk of `GET /api/chat/:id/stream`, the continuation's stream, or, when that has
 * already ended (204), to the saved chat that holds the output.
 */
async function parkedResume(server: AppServer, index: number): Promise<number> {
  const chatId = `resume-parked-${process.pid}-${index}`;
  const controller = new AbortController();
  const response = await fetch(`${server.url}/api/chat`, {
    method: 'POST',
    headers: sessionHeaders(server.url),
    body: JSON.stringify({
      id: chatId,
      worker: 'refund',
      message: userMessage(`create a ticket: parked bench ${index}`),
    }),
    signal: controller.signal,
  });
  await expectStatus(response, 200, '/api/chat');
  const request = await nextOfType(readUIChunks(response), 'tool-approval-request');
  controller.abort();
  const streamPath = `${server.url}/api/chat/${chatId}/stream`;
  // Parked once the chat has no running stream (read from the chat: a resume would be a reader).
  for (let waited = 0; ; waited += 50) {
    const chat = await fetch(`${server.url}/api/chats/${chatId}`, { headers: sessionHeaders(server.url) });
    if (((await chat.json()) as { activeStream: unknown }).activeStream === null) break;
    if (waited > 30_000) throw new Error('The turn did not park within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const startMicros = monotonicMicros();
  const start = nowMs();
  const decision = await post(`${server.url}/api/chat/approve`, {
    approvalId: request.approvalId,
    sessionId: chatId,
    approved: true,
  });
  await expectStatus(decision, 200, '/api/chat/approve');
  // As the page does: follow the continuation; if it has already ended (204), read the saved chat.
  const continued = await fetch(streamPath, { headers: sessionHeaders(server.url) });
  if (continued.status === 204) {
    const saved = await fetch(`${server.url}/api/chats/${chatId}`, { headers: sessionHeaders(server.url) });
    await expectStatus(saved, 200, `GET /api/chats/${chatId}`);
    const elapsed = nowMs() - start;
    recordWindow('parked', startMicros);
    if (!(await saved.text()).includes('"output-available"')) throw new Error('The saved chat has no output');
    return elapsed;
  }
  await expectStatus(continued, 200, `GET /api/chat/${chatId}/stream`);
  const chunks = readUIChunks(continued);
  const output = await nextOfType(chunks, 'tool-output-available');
  const elapsed = nowMs() - start;
  recordWindow('parked', startMicros);
  if (output.toolCallId !== request.toolCallId) throw new Error('The output belongs to another call');
  await drain(chunks);
  return elapsed;
}

/**
 * The AI SDK's stop-and-resubmit flow: the first request ends at the approval
 * request; the client records the approval in the tool part (what
 * `addToolApprovalResponse` does) and posts the whole history again. Measured
 * from sending that second request to its `tool-output-available` chunk.
 */
async function resubmitResume(server: AppServer, index: number): Promise<number> {
  const path = `${server.url}/api/bench/resubmit`;
  const user = userMessage(`create a ticket: resume bench ${index}`);
  const first = await post(path, { messages: [user] });
  await expectStatus(first, 200, '/api/bench/resubmit');
  const chunks: UIMessageChunk[] = [];
  for await (const chunk of readUIChunks(first)) chunks.push(chunk);
  let assistant: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream: streamOf(chunks) })) assistant = message;
  const part = assistant?.parts.find(
    (candidate) => 'state' in candidate && candidate.state === 'approval-requested',
  );
  if (assistant === undefined || part === undefined || !('approval' in part) || part.approval === undefined) {
    throw new Error(
      `The first resubmit request ended without an approval request: ${chunks.map((c) => c.type)}`,
    );
  }
  const answered = {
    ...assistant,
    parts: assistant.parts.map((candidate) =>
      candidate === part
        ? { ...part, state: 'approval-responded', approval: { ...part.approval, approved: true } }
        : candidate,
    ),
  };
  const body = JSON.stringify({ messages: [user, answered] });
  const startMicros = monotonicMicros();
  const start = nowMs();
  const second = await fetch(path, { method: 'POST', headers: sessionHeaders(path), body });
  await expectStatus(second, 200, '/api/bench/resubmit (resubmitted)');
  const secondChunks = readUIChunks(second);
  await nextOfType(secondChunks, 'tool-output-available');
  const elapsed = nowMs() - start;
  recordWindow('resubmit', startMicros);
  await drain(secondChunks);
  return elapsed;
}

/** One `hello` turn in `chatId`, sent as the client sends it (the new message only); its time and body size. */
async function helloTurn(
  server: AppServer,
  chatId: string,
  index: number,
): Promise<{ ms: number; bytes: number }> {
  const body = JSON.stringify({ id: chatId, worker: 'knowledge', message: userMessage(`hello ${index}`) });
  const start = nowMs();
  const response = await fetch(`${server.url}/api/chat`, {
    method: 'POST',
    headers: sessionHeaders(server.url),
    body,
  });
  await expectStatus(response, 200, '/api/chat');
  await drain(readUIChunks(response));
  return { ms: nowMs() - start, bytes: Buffer.byteLength(body) };
}

/**
 * A turn in a long chat against a turn in a new one. The client sends only the new
 * message, so the request stays small however long the chat; the server reads the
 * stored history, which is what grows. Targets: body ≤ 2 KB, time ≤ 2 × the short chat's.
 */
async function longChatRow(server: AppServer, quick: boolean, log: (line: string) => void) {
  const messages = quick ? 40 : 400;
  const long = `history-long-${process.pid}`;
  log(`history: building a ${messages}-message chat`);
  for (let index = 0; index < messages / 2 - 1; index += 1) await helloTurn(server, long, index);
  const shortTimes: number[] = [];
  const longTimes: number[] = [];
  let longBytes = 0;
  for (let index = 0; index < (quick ? 5 : 20); index += 1) {
    shortTimes.push((await helloTurn(server, `history-short-${process.pid}-${index}`, index)).ms);
    const turn = await helloTurn(server, long, 1000 + index);
    longTimes.push(turn.ms);
    longBytes = Math.max(longBytes, turn.bytes);
  }
  const ratio = median(longTimes) / median(shortTimes);
  return {
    name: `history/turn-at-message-${messages}`,
    baseline: { label: 'a turn at message 2', medianMs: round(median(shortTimes)) },
    subject: {
      label: `a turn at message ${messages}+`,
      medianMs: round(median(longTimes)),
      requestBytes: longBytes,
    },
    ratio: round(ratio),
    ratioOf: 'median server time, long chat ÷ new chat',
    target: 'request body ≤ 2 KB and time ≤ 2 × a new chat',
    pass: longBytes <= 2048 && ratio <= 2,
  };
}

/** `--against`: the live path of this build against another's, round by round (sign test). */
function buildComparisonRow(distDir: string, other: number[], ours: number[]): BenchResult {
  const decided = ours
    .map((ms, index) => ms - (other[index] as number))
    .filter((difference) => difference !== 0);
  const slowerRounds = decided.filter((difference) => difference > 0).length;
  const roundRatios = ours.map((ms, index) => (other[index] as number) / ms);
  return {
    name: 'approval-resume/live-path-against-build',
    baseline: {
      label: `in-stream approval, build ${distDir}`,
      medianMs: round(median(other)),
      p90Ms: round(quantile(other, 0.9)),
      rounds: other.length,
    },
    subject: {
      label: 'in-stream approval, this build',
      medianMs: round(median(ours)),
      p90Ms: round(quantile(ours, 0.9)),
      slowerInRounds: `${slowerRounds}/${decided.length}`,
      pSlower: round(signTestPValue(slowerRounds, decided.length)),
      pFaster: round(signTestPValue(decided.length - slowerRounds, decided.length)),
      medianRoundRatio: round(median(roundRatios)),
      ratioSpread: `${round(quantile(roundRatios, 0.1))}–${round(quantile(roundRatios, 0.9))}`,
    },
    ratio: round(median(other) / median(ours)),
    ratioOf: 'speed-up at the median, other build ÷ this build',
    target: 'report',
    pass: null,
  };
}

/**
 * Time from a person's decision to the tool's output, Toolgate's live path (the
 * decision wakes the turn, which streams the output) against the AI SDK's
 * stop-and-resubmit flow, on one production server with approvals on
 * (`createTicket`, the default). Rounds alternate; medians and p90. Both flows
 * cost one request after the decision, so the target is parity: the live path is
 * no slower than resubmitting. The parked path (the client left, the turn was
 * continued from the database) is reported beside them. Also: a turn in a long chat
 * against a new one.
 */
export const approvalResume: BenchCase = async ({ quick, log, scratch }) => {
  const server = await startApp({
    databasePath: join(scratch, 'approval.db'),
    // Parked rounds wait for their turn to park; the live rounds always have a reader.
    environment: { TOOLGATE_PARK_AFTER_MS: '200' },
  });
  // `--against=<dist dir>`: the live path of another build (the code before a change), same rounds.
  const againstDistDir = process.env.BENCH_AGAINST_DIST_DIR || undefined;
  const against =
    againstDistDir === undefined
      ? undefined
      : await startApp({
          databasePath: join(scratch, 'approval-against.db'),
          environment: { TOOLGATE_PARK_AFTER_MS: '200' },
          distDir: againstDistDir,
        });
  try {
    const rounds = quick ? 5 : 30;
    // Warm-up: compiles both routes and the approve route.
    for (let index = 0; index < (quick ? 2 : 5); index += 1) {
      await ourResume(server, -index - 1);
      if (against !== undefined) await ourResume(against, -index - 1);
      await resubmitResume(server, -index - 1);
      await parkedResume(server, -index - 1);
    }
    log(`approval resume: ${rounds} rounds`);
    const profileDirectory = serverProfileDirectory();
    if (profileDirectory !== undefined) windows = { live: [], liveAgainst: [], resubmit: [], parked: [] };
    const ours: number[] = [];
    const resubmit: number[] = [];
    const parked: number[] = [];
    const otherBuild: number[] = [];
    for (let index = 0; index < rounds; index += 1) {
      if (index % 2 === 0) {
        ours.push(await ourResume(server, index));
        if (against !== undefined) otherBuild.push(await ourResume(against, index, 'liveAgainst'));
        resubmit.push(await resubmitResume(server, index));
      } else {
        resubmit.push(await resubmitResume(server, index));
        if (against !== undefined) otherBuild.push(await ourResume(against, index, 'liveAgainst'));
        ours.push(await ourResume(server, index));
      }
      parked.push(await parkedResume(server, index));
    }
    if (profileDirectory !== undefined && windows !== undefined) {
      const file = join(profileDirectory, 'approval-resume-windows.json');
      writeFileSync(file, `${JSON.stringify(windows)}\n`);
      windows = undefined;
      log(`the rounds' time windows: ${file} (--windows=… --window=live|liveAgainst|resubmit|parked)`);
    }
    const speedup = median(resubmit) / median(ours);
    // Parity is judged on the paired rounds (each round runs both flows back to back):
    // "slower" only when the live path lost significantly more rounds than it won (sign
    // test, p < 0.05), so noise around parity cannot flip the verdict.
    const decided = ours.map((ms, index) => ms - resubmit[index]).filter((difference) => difference !== 0);
    const slowerRounds = decided.filter((difference) => difference > 0).length;
    const pSlower = signTestPValue(slowerRounds, decided.length);
    const roundRatios = ours.map((ms, index) => resubmit[index] / ms);
    const rows: BenchResult[] = [
      {
        name: 'approval-resume/decision-to-output',
        baseline: {
          label: 'AI SDK stop-and-resubmit (toolApproval, history posted again)',
          medianMs: round(median(resubmit)),
          p90Ms: round(quantile(resubmit, 0.9)),
          rounds,
        },
        subject: {
          label: 'in-stream approval (POST /api/chat/approve wakes the open stream)',
          medianMs: round(median(ours)),
          p90Ms: round(quantile(ours, 0.9)),
          rounds,
          slowerInRounds: `${slowerRounds}/${decided.length}`,
          pSlower: round(pSlower),
          ratioSpread: `${round(quantile(roundRatios, 0.1))}–${round(quantile(roundRatios, 0.9))}`,
        },
        ratio: round(speedup),
        ratioOf: 'speed-up at the median, baseline median ÷ subject median',
        target:
          'live path no slower than resubmit: not slower in significantly more paired rounds (sign test p ≥ 0.05)',
        pass: pSlower >= 0.05,
      },
      {
        name: 'approval-resume/parked-decision-to-output',
        baseline: {
          label: 'AI SDK stop-and-resubmit (same rounds as above)',
          medianMs: round(median(resubmit)),
          p90Ms: round(quantile(resubmit, 0.9)),
          rounds,
        },
        subject: {
          label: 'parked turn (client gone): approve continues it from the database, read on resume',
          medianMs: round(median(parked)),
          p90Ms: round(quantile(parked, 0.9)),
          rounds,
        },
        ratio: round(median(parked) / median(resubmit)),
        ratioOf: 'median time, parked path ÷ resubmit',
        target: 'report',
        pass: null,
      },
      await longChatRow(server, quick, log),
    ];
    if (againstDistDir !== undefined) rows.push(buildComparisonRow(againstDistDir, otherBuild, ours));
    return rows;
  } finally {
    await against?.stop();
    await server.stop();
  }
};
