import { readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { sessionHeaders, startApp } from '../support/next-app';
import { round } from '../support/stats';
import type { BenchCase } from '../support/types';
import { readUIChunks, userMessage } from '../support/ui-stream';

/** The server's heap after a full collection (the bench-only probe route). */
async function heapBytes(url: string): Promise<number> {
  const response = await fetch(`${url}/api/bench/memory`, { headers: sessionHeaders(url) });
  if (response.status !== 200)
    throw new Error(`/api/bench/memory answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { heapUsed: number }).heapUsed;
}

/** How many sockets the server holds open. */
function openSockets(pid: number): number {
  let count = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) count += 1;
    } catch {
      // closed while we looked
    }
  }
  return count;
}

/** Starts a turn that asks for approval, reads up to its card, then leaves (the client goes away). */
async function askAndLeave(url: string, index: number): Promise<void> {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/chat`, {
    method: 'POST',
    headers: sessionHeaders(url),
    body: JSON.stringify({
      id: `parked-${process.pid}-${index}`,
      message: userMessage(`create a ticket: parked ${index}`),
    }),
    signal: controller.signal,
  });
  if (response.status !== 200)
    throw new Error(`/api/chat answered ${response.status}: ${await response.text()}`);
  for await (const chunk of readUIChunks(response)) {
    if (chunk.type === 'tool-approval-request') break;
  }
  controller.abort();
}

/**
 * Approvals whose clients have gone: each turn waits (detached from its request) for a
 * person, its card saved. Measured on the server process: heap per waiting approval
 * after a full collection, and the sockets left open once every client has gone.
 * Targets: ≤ 20 KB each, no socket per approval.
 */
export const parkedApprovals: BenchCase = async ({ quick, scratch, log }) => {
  const count = quick ? 200 : 1000;
  const server = await startApp({
    databasePath: join(scratch, 'parked.db'),
    // Longer than the run: every approval is still waiting when it is measured.
    environment: { AGENT_CONFIRM_TIMEOUT_MS: '900000' },
    nodeArguments: ['--expose-gc'],
  });
  try {
    const pid = server.process.child.pid;
    if (pid === undefined) throw new Error('no server pid');
    // Warm-up: compile the routes and fill the caches before the baseline.
    for (let index = 0; index < 10; index += 1) await askAndLeave(server.url, -index - 1);
    await new Promise((resolve) => setTimeout(resolve, 4000));
    const before = { bytes: await heapBytes(server.url), sockets: openSockets(pid) };
    log(`parked approvals: ${count} turns whose clients leave`);
    for (let start = 0; start < count; start += 10) {
      await Promise.all(
        Array.from({ length: Math.min(10, count - start) }, (_, offset) =>
          askAndLeave(server.url, start + offset),
        ),
      );
    }
    // Past the park delay (TOOLGATE_PARK_AFTER_MS, 2 s by default): every turn nobody follows has parked.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    const after = { bytes: await heapBytes(server.url), sockets: openSockets(pid) };
    const bytesEach = Math.max(0, after.bytes - before.bytes) / count;
    const extraSockets = Math.max(0, after.sockets - before.sockets);
    return [
      {
        name: `parked-approvals/${count}-clients-gone`,
        baseline: {
          label: 'server after warm-up',
          heapMB: round(before.bytes / 2 ** 20),
          sockets: before.sockets,
        },
        subject: {
          label: `server with ${count} approvals waiting, clients gone`,
          heapMB: round(after.bytes / 2 ** 20),
          sockets: after.sockets,
          bytesEach: round(bytesEach),
        },
        ratio: round(bytesEach / 1024),
        ratioOf: 'heap KB per waiting approval, after a full collection',
        target: '≤ 20 KB per waiting approval and no socket left per approval',
        pass: bytesEach <= 20 * 1024 && extraSockets < count / 10,
      },
    ];
  } finally {
    await server.stop();
  }
};
