import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type AppServer, startApp } from '../support/next-app';
import { cpuSecondsOf } from '../support/process-cpu';
import { median, round } from '../support/stats';
import type { BenchCase, BenchResult } from '../support/types';
import { checkTurn, hammer, type Round, summarize, turnKinds } from './chat-throughput';

/** A local OTLP/HTTP collector that takes every export and throws it away; counts the requests. */
async function startSinkCollector(): Promise<{
  url: string;
  exports: () => number;
  stop: () => Promise<void>;
}> {
  let exports = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      exports += 1;
      response.writeHead(200, { 'content-type': 'application/x-protobuf' });
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports: () => exports,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Chat turns per second with tracing on (every span exported over OTLP/HTTP protobuf to
 * a local collector) against the same server build with it off, for a turn with a write
 * tool (the AI SDK's spans and a `tool.call` span with its events). Two servers, the
 * same settings but `OTEL_EXPORTER_OTLP_ENDPOINT`; rounds alternate ABBA between them.
 */
export const tracing: BenchCase = async ({ scratch, quick, log }) => {
  const kind = turnKinds.find((candidate) => candidate.name === 'write-tool') ?? turnKinds[0];
  const collector = await startSinkCollector();
  const servers: Partial<Record<'off' | 'on', AppServer>> = {};
  try {
    servers.off = await startApp({
      databasePath: join(scratch, 'tracing-off.db'),
      environment: { AGENT_CONFIRM_TOOLS: '' },
    });
    servers.on = await startApp({
      databasePath: join(scratch, 'tracing-on.db'),
      environment: { AGENT_CONFIRM_TOOLS: '', OTEL_EXPORTER_OTLP_ENDPOINT: collector.url },
    });
    const urlOf = (side: 'off' | 'on') => (servers[side] as AppServer).url;
    for (const side of ['off', 'on'] as const) await checkTurn(urlOf(side), '/api/chat', kind);
    for (const side of ['off', 'on'] as const) await hammer(urlOf(side), '/api/chat', kind, quick ? 1 : 3);
    // Ten pairs of 3 s rounds (quick: two of 1 s): on a shared machine a few rounds land on
    // someone else's burst, and the median of the pair ratios leaves them out.
    const abba = ['off', 'on', 'on', 'off'] as const;
    const order = Array.from({ length: quick ? 1 : 5 }, () => abba).flat();
    const roundSeconds = quick ? 1 : 3;
    const roundsBySide: Record<'off' | 'on', Round[]> = { off: [], on: [] };
    // The server's CPU per turn in each round, beside its throughput (undefined without /proc).
    const cpuMsBySide: Record<'off' | 'on', (number | undefined)[]> = { off: [], on: [] };
    for (const side of order) {
      log(`tracing: ${side} ${roundSeconds}s`);
      const pid = (servers[side] as AppServer).process.child.pid;
      const cpuBefore = cpuSecondsOf(pid);
      const result = await hammer(urlOf(side), '/api/chat', kind, roundSeconds);
      const cpuAfter = cpuSecondsOf(pid);
      roundsBySide[side].push(result);
      cpuMsBySide[side].push(
        cpuBefore === undefined || cpuAfter === undefined || result.requests === 0
          ? undefined
          : ((cpuAfter - cpuBefore) * 1000) / result.requests,
      );
    }
    const ratios = roundsBySide.on.map(
      (onRound, index) =>
        onRound.latencies.length /
        onRound.seconds /
        (roundsBySide.off[index].latencies.length / roundsBySide.off[index].seconds),
    );
    const ratio = median(ratios);
    // Turns per CPU second, on ÷ off, paired as above: what tracing costs the server itself,
    // which moves far less than throughput when other work shares the machine.
    const cpuRatios = cpuMsBySide.on.flatMap((onCpu, index) => {
      const offCpu = cpuMsBySide.off[index];
      return onCpu === undefined || offCpu === undefined || onCpu === 0 ? [] : [offCpu / onCpu];
    });
    const cpuFigures: Record<string, number | string> =
      cpuRatios.length === 0
        ? {}
        : {
            cpuMsPerTurnOff: round(median(cpuMsBySide.off.filter((value) => value !== undefined))),
            cpuMsPerTurnOn: round(median(cpuMsBySide.on.filter((value) => value !== undefined))),
            cpuRatio: round(median(cpuRatios)),
            cpuRatioSpread: `${round(Math.min(...cpuRatios))}–${round(Math.max(...cpuRatios))}`,
          };
    const off = summarize(roundsBySide.off);
    const on = summarize(roundsBySide.on);
    const figures = (side: ReturnType<typeof summarize>) => ({
      requestsPerSecond: round(side.requestsPerSecond),
      p50Ms: round(side.p50),
      p99Ms: round(side.p99),
      requests: side.requests,
      failures: side.failures,
    });
    const row: BenchResult = {
      name: 'tracing/write-tool',
      baseline: { label: '/api/chat, tracing off', ...figures(off) },
      subject: {
        label: '/api/chat, OTLP/HTTP protobuf to a local collector',
        ...figures(on),
        ratioSpread: `${round(Math.min(...ratios))}–${round(Math.max(...ratios))}`,
        pairs: ratios.length,
        ...cpuFigures,
        collectorRequests: collector.exports(),
      },
      ratio: round(ratio),
      ratioOf: 'median over paired rounds of requests/s, tracing on ÷ off (10 connections)',
      target: 'throughput ≥ 0.9 × tracing off',
      pass: ratio >= 0.9 && on.failures === 0 && off.failures === 0 && collector.exports() > 0,
    };
    return [row];
  } finally {
    await Promise.all([servers.off?.stop(), servers.on?.stop()]);
    await collector.stop();
  }
};
