import { rmSync, writeFileSync } from 'node:fs';
import { downstreamIdempotencyKey } from '@toolgate/engine/shells';
import type { UIMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as auditLog } from '@/app/api/activity/route';
import { POST as approve } from '@/app/api/chat/approve/route';
import { POST as chat } from '@/app/api/chat/route';
import { GET as meta } from '@/app/api/meta/route';
import { closeMcpServerPool } from '@/lib/mcp/mcp-server-pool';
import { ChatStreamReader, getRequest, jsonRequest, userMessage } from '../support/chat-client';
import {
  loggedCalls,
  type NotesHttpServer,
  type NotesServerFiles,
  notesServerFiles,
  notesStdioServer,
  startNotesHttpServer,
  writeMcpConfig,
} from '../support/notes-mcp-server';
import { configureServer } from '../support/server-env';

type MetaWorker = {
  name: string;
  tools: string[];
  mcpTools: { name: string; server: string; description: string; available: boolean }[];
};

async function startTurn(chatId: string, messages: UIMessage[], worker?: string) {
  const response = await chat(jsonRequest('/api/chat', { id: chatId, messages, worker }));
  expect(response.status).toBe(200);
  return new ChatStreamReader(response);
}

async function decide(approvalId: string, chatId: string, approved: boolean) {
  const response = await approve(
    jsonRequest('/api/chat/approve', { approvalId, sessionId: chatId, approved }),
  );
  expect(response.status).toBe(200);
}

function chunkOf<TYPE extends string>(reader: ChatStreamReader, type: TYPE) {
  return reader.chunks.find((chunk) => chunk.type === type) as Record<string, unknown> | undefined;
}

async function workers(): Promise<MetaWorker[]> {
  return (await (await meta(getRequest('/api/meta'))).json()).workers;
}

async function auditRows(chatId: string): Promise<{ toolName: string; outcome: string; worker: string }[]> {
  const response = auditLog(getRequest(`/api/activity?chatId=${chatId}`));
  return (await response).json();
}

/** Waits until the page would show the server's tools as reachable again. */
async function waitUntilAvailable(toolName: string) {
  await expect
    .poll(
      async () =>
        (await workers()).flatMap((worker) => worker.mcpTools).find((tool) => tool.name === toolName)
          ?.available,
      { timeout: 20_000, interval: 200 },
    )
    .toBe(true);
}

type Transport = {
  name: 'stdio' | 'Streamable HTTP';
  /** The worker the server's tools join: an existing one for stdio, a new one for HTTP. */
  worker: string;
  /** Writes the config and returns MCP_CONFIG. */
  setUp: (files: NotesServerFiles) => Promise<string>;
  /** Takes the server away and keeps it away. */
  takeDown: (files: NotesServerFiles) => Promise<void>;
  /** Lets the server come back. */
  bringBack: (files: NotesServerFiles) => Promise<void>;
  tearDown: () => Promise<void>;
};

let httpServer: NotesHttpServer | undefined;

const transports: Transport[] = [
  {
    name: 'stdio',
    worker: 'assistant',
    setUp: async (files) =>
      writeMcpConfig(files, { notes: notesStdioServer(files, { worker: 'assistant' }) }),
    takeDown: async (files) => {
      // The outage file keeps the respawned process from starting; then the running one dies.
      writeFileSync(files.outageFile, '');
      const pid = loggedCalls(files).at(-1)?.pid;
      if (pid === undefined) throw new Error('no call logged yet, so no pid to kill');
      process.kill(pid, 'SIGKILL');
    },
    bringBack: async (files) => rmSync(files.outageFile, { force: true }),
    tearDown: async () => {},
  },
  {
    name: 'Streamable HTTP',
    worker: 'notes',
    setUp: async (files) => {
      httpServer = await startNotesHttpServer(files);
      return writeMcpConfig(files, { notes: { url: httpServer.url, worker: 'notes' } });
    },
    takeDown: async () => httpServer?.stop(),
    bringBack: async (files) => {
      httpServer = await startNotesHttpServer(files, httpServer?.port);
    },
    tearDown: async () => httpServer?.stop(),
  },
];

describe.each(transports)('MCP tools over $name', (transport) => {
  let files: NotesServerFiles;
  const deleteCalls = (id: string) =>
    loggedCalls(files).filter((call) => call.tool === 'delete_note' && call.args.id === id);

  beforeAll(async () => {
    files = notesServerFiles();
    await configureServer({ MCP_CONFIG: await transport.setUp(files) });
  });

  afterAll(async () => {
    await closeMcpServerPool();
    await transport.tearDown();
  });

  it(`lists the server's tools with their descriptions under the ${transport.worker} worker`, async () => {
    const worker = (await workers()).find((candidate) => candidate.name === transport.worker);
    expect(worker?.tools).toEqual(expect.arrayContaining(['notes__list_notes', 'notes__delete_note']));
    expect(worker?.mcpTools).toContainEqual({
      name: 'notes__delete_note',
      server: 'notes',
      description: expect.stringContaining('Delete one note'),
      available: true,
      readOnly: false,
    });
  });

  it('names the tools that only read, built-in and MCP, so the page can fold their calls', async () => {
    const { readOnlyTools } = (await (await meta(getRequest('/api/meta'))).json()) as {
      readOnlyTools: string[];
    };
    expect([...readOnlyTools].sort()).toEqual(
      ['getOrderStatus', 'listTodos', 'notes__list_notes', 'searchKnowledgeBase'].sort(),
    );
  });

  it('asks before a destructive tool runs, runs it once on allow, and replays the same call later in the chat', async () => {
    const chatId = `mcp-allow-${transport.worker}`;
    const command = '/tool notes__delete_note {"id":"n1"}';
    const first = await startTurn(chatId, [userMessage(command)]);
    const request = await first.until('tool-approval-request');
    expect(chunkOf(first, 'tool-input-available')).toMatchObject({
      toolName: 'notes__delete_note',
      input: { id: 'n1' },
    });
    expect(deleteCalls('n1')).toHaveLength(0);

    await decide(request.approvalId, chatId, true);
    await first.rest();
    expect(chunkOf(first, 'tool-output-available')).toMatchObject({
      output: { text: 'Deleted note n1: Buy milk' },
    });
    expect(first.text()).toContain('Deleted note n1');
    expect(deleteCalls('n1')).toHaveLength(1);
    // The server got the call's idempotency key, so it could dedupe a repeat itself.
    expect(deleteCalls('n1')[0].idempotencyKey).toBe(
      downstreamIdempotencyKey(chatId, 'notes__delete_note', { id: 'n1' }),
    );

    const second = await startTurn(chatId, [
      userMessage(command),
      await first.message(),
      userMessage(command),
    ]);
    const again = await second.until('tool-approval-request');
    await decide(again.approvalId, chatId, true);
    await second.rest();
    // Same answer as the first time, marked as a replay, and the server never saw a second call.
    expect(chunkOf(second, 'tool-output-available')).toMatchObject({
      output: { text: 'Deleted note n1: Buy milk' },
      toolMetadata: { replayed: true },
    });
    expect(deleteCalls('n1')).toHaveLength(1);

    expect(await auditRows(chatId)).toEqual([
      expect.objectContaining({
        toolName: 'notes__delete_note',
        outcome: 'replayed',
        worker: transport.worker,
      }),
      expect.objectContaining({
        toolName: 'notes__delete_note',
        outcome: 'executed',
        worker: transport.worker,
      }),
    ]);
  });

  it('runs nothing when the person denies the call', async () => {
    const chatId = `mcp-deny-${transport.worker}`;
    const reader = await startTurn(chatId, [userMessage('/tool notes__delete_note {"id":"n2"}')]);
    const request = await reader.until('tool-approval-request');
    await decide(request.approvalId, chatId, false);
    await reader.rest();
    // The SDK's own denial: an approval response that says no, then `tool-output-denied`.
    expect(chunkOf(reader, 'tool-approval-response')).toMatchObject({ approved: false });
    expect(chunkOf(reader, 'tool-output-denied')).toBeDefined();
    expect(chunkOf(reader, 'tool-output-available')).toBeUndefined();
    expect(deleteCalls('n2')).toHaveLength(0);
    expect((await auditRows(chatId)).map((row) => row.outcome)).toEqual(['denied']);
  });

  it('runs a read-only tool without an approval card', async () => {
    const reader = await startTurn(`mcp-read-${transport.worker}`, [
      userMessage('/tool notes__list_notes {}'),
    ]);
    await reader.rest();
    expect(reader.chunks.some((chunk) => chunk.type === 'tool-approval-request')).toBe(false);
    expect(chunkOf(reader, 'tool-output-available')).toMatchObject({
      output: { text: expect.stringContaining('n2: Call the plumber') },
    });
  });

  it('cannot call the tool from a worker whose table does not hold it', async () => {
    const before = loggedCalls(files).length;
    const reader = await startTurn(
      `mcp-elsewhere-${transport.worker}`,
      [userMessage('/tool notes__delete_note {"id":"n3"}')],
      'order',
    );
    await reader.rest();
    expect(reader.chunks.some((chunk) => chunk.type === 'tool-input-available')).toBe(false);
    expect(reader.text()).toContain('notes__delete_note');
    expect(loggedCalls(files)).toHaveLength(before);
  });

  it('answers a clear error while the server is down, and the tools work again once it is back', async () => {
    const chatId = `mcp-outage-${transport.worker}`;
    const command = userMessage('/tool notes__list_notes {"query":"passport"}');
    const healthy = await startTurn(chatId, [command]);
    await healthy.rest();
    expect(chunkOf(healthy, 'tool-output-available')).toMatchObject({ output: { text: expect.any(String) } });

    await transport.takeDown(files);
    const broken = await startTurn(chatId, [command]);
    await broken.rest();
    expect(chunkOf(broken, 'tool-output-error')).toMatchObject({
      errorText: expect.stringMatching(/MCP server "notes" (is not reachable|went away)/),
    });
    expect(broken.text()).toMatch(/notes__list_notes failed/);

    // The rest of the app does not notice.
    const other = await startTurn(`${chatId}-order`, [userMessage('where is my order A1001')]);
    await other.rest();
    expect(chunkOf(other, 'tool-output-available')).toMatchObject({ output: { orderId: 'A1001' } });

    await transport.bringBack(files);
    await waitUntilAvailable('notes__list_notes');
    const recovered = await startTurn(chatId, [command]);
    await recovered.rest();
    expect(chunkOf(recovered, 'tool-output-available')).toMatchObject({
      output: { text: 'n3: Renew the passport before June' },
    });
    expect((await auditRows(chatId)).map((row) => row.outcome)).toEqual(['executed', 'error', 'executed']);
  });
});
