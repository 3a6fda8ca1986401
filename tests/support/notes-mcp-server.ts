import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The example MCP server the tests run, as a real process. */
export const notesServerScript = resolve('examples/mcp-server/notes-server.mjs');

/** One tool call as the example server logged it. */
export type LoggedCall = {
  tool: string;
  args: Record<string, unknown>;
  /** What the call carried in `_meta["io.toolgate/idempotency-key"]` (writes only). */
  idempotencyKey?: string;
  pid: number;
};

/** A scratch folder holding an MCP config, the server's call log and its outage switch. */
export type NotesServerFiles = { folder: string; callLog: string; outageFile: string };

export function notesServerFiles(): NotesServerFiles {
  const folder = mkdtempSync(join(tmpdir(), 'toolgate-mcp-'));
  return { folder, callLog: join(folder, 'calls.jsonl'), outageFile: join(folder, 'outage') };
}

/** The calls the server really ran, oldest first. */
export function loggedCalls({ callLog }: NotesServerFiles): LoggedCall[] {
  if (!existsSync(callLog)) return [];
  return readFileSync(callLog, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LoggedCall);
}

/** The `MCP_CONFIG` entry that runs the example server over stdio. */
export function notesStdioServer(files: NotesServerFiles, extra: Record<string, unknown> = {}) {
  return {
    command: process.execPath,
    args: [notesServerScript],
    env: { NOTES_MCP_CALL_LOG: files.callLog, NOTES_MCP_OUTAGE_FILE: files.outageFile },
    ...extra,
  };
}

/**
 * Writes an `MCP_CONFIG` file with short reconnection waits (a test should not sit out
 * a production backoff) and returns its path.
 */
export function writeMcpConfig(files: NotesServerFiles, servers: Record<string, unknown>): string {
  const path = join(files.folder, `mcp-${Object.keys(servers).join('-')}.json`);
  writeFileSync(path, JSON.stringify({ servers, reconnect: { initialDelayMs: 100, maxDelayMs: 400 } }));
  return path;
}

/** The example server over Streamable HTTP, as its own process. */
export type NotesHttpServer = { url: string; port: number; process: ChildProcess; stop: () => Promise<void> };

/** Starts the example server over Streamable HTTP and waits until it listens. */
export async function startNotesHttpServer(files: NotesServerFiles, port = 0): Promise<NotesHttpServer> {
  const child = spawn(process.execPath, [notesServerScript, '--http', String(port)], {
    env: { ...process.env, NOTES_MCP_CALL_LOG: files.callLog },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`notes server did not listen in 15 s:\n${output}`)),
      15_000,
    );
    child.stdout?.on('data', (data) => {
      output += data;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    });
    child.stderr?.on('data', (data) => {
      output += data;
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`notes server exited with ${code}:\n${output}`));
    });
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGKILL');
    await exited;
  };
  return { url, port: Number(new URL(url).port), process: child, stop };
}
