#!/usr/bin/env node
/**
 * A small MCP server of our own: a notes list with one read-only tool and one destructive one.
 *
 *   node examples/mcp-server/notes-server.mjs                 # stdio (what MCP_CONFIG's "command" runs)
 *   node examples/mcp-server/notes-server.mjs --http 8931     # Streamable HTTP on http://127.0.0.1:8931/mcp
 *
 * Environment, for tests and demos:
 * - NOTES_MCP_CALL_LOG: a file that gets one JSON line per tool call, so a test can count
 *   what the server really ran (a replay answered by Toolgate never reaches it), with the
 *   idempotency key Toolgate sent in `_meta["io.toolgate/idempotency-key"]` for a write.
 * - NOTES_MCP_OUTAGE_FILE: while this file exists the server refuses to start, which is
 *   how a test keeps a killed stdio server down until it lets it come back.
 */
import { appendFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const outageFile = process.env.NOTES_MCP_OUTAGE_FILE;
if (outageFile && existsSync(outageFile)) {
  console.error(`notes-server: refusing to start while ${outageFile} exists`);
  process.exit(1);
}

/** The notes, shared by every HTTP request (stateless mode builds a server per request). */
const notes = new Map([
  ['n1', 'Buy milk'],
  ['n2', 'Call the plumber about the kitchen tap'],
  ['n3', 'Renew the passport before June'],
]);

/** The key Toolgate sends with each write: the same for every repeat of one call, so a server can dedupe too. */
const idempotencyKeyOf = (extra) => extra?._meta?.['io.toolgate/idempotency-key'];

function logCall(tool, args, idempotencyKey) {
  const file = process.env.NOTES_MCP_CALL_LOG;
  if (!file) return;
  const line = { tool, args, idempotencyKey, pid: process.pid, at: new Date().toISOString() };
  appendFileSync(file, `${JSON.stringify(line)}\n`);
}

const text = (value) => ({ content: [{ type: 'text', text: value }] });

function createNotesServer() {
  const server = new McpServer({ name: 'toolgate-example-notes', version: '1.0.0' });
  server.registerTool(
    'list_notes',
    {
      title: 'List notes',
      description: 'List the notes (id and text), optionally only those containing a word.',
      inputSchema: { query: z.string().max(200).optional().describe('Only notes containing this text') },
      annotations: { readOnlyHint: true },
    },
    async ({ query }, extra) => {
      logCall('list_notes', { query }, idempotencyKeyOf(extra));
      const lines = [...notes]
        .filter(([, note]) => !query || note.toLowerCase().includes(query.toLowerCase()))
        .map(([id, note]) => `${id}: ${note}`);
      return text(lines.length > 0 ? lines.join('\n') : 'No notes.');
    },
  );
  server.registerTool(
    'delete_note',
    {
      title: 'Delete a note',
      description: 'Delete one note for good, by its id (e.g. "n1"). This cannot be undone.',
      inputSchema: { id: z.string().min(1).max(64).describe('The id of the note, e.g. "n1"') },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    },
    async ({ id }, extra) => {
      logCall('delete_note', { id }, idempotencyKeyOf(extra));
      const note = notes.get(id);
      if (note === undefined) return text(`There is no note ${id}; nothing was deleted.`);
      notes.delete(id);
      return text(`Deleted note ${id}: ${note}`);
    },
  );
  return server;
}

async function serveStdio() {
  const transport = new StdioServerTransport();
  await createNotesServer().connect(transport);
  // The client going away closes our stdin: leave with it rather than linger as an orphan.
  process.stdin.on('end', () => process.exit(0));
  process.stdin.on('close', () => process.exit(0));
}

function serveHttp(port) {
  const httpServer = createServer(async (request, response) => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== '/mcp') {
      response.writeHead(404).end();
      return;
    }
    // Stateless: a fresh server and transport per request, so a restarted server serves old clients.
    const server = createNotesServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      transport.close();
      server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request, response);
    } catch (error) {
      console.error('notes-server:', error);
      if (!response.headersSent) response.writeHead(500).end();
    }
  });
  httpServer.listen(port, '127.0.0.1', () => {
    const address = httpServer.address();
    console.log(`notes-server listening on http://127.0.0.1:${address.port}/mcp`);
  });
  const stop = () => httpServer.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

const httpFlag = process.argv.indexOf('--http');
if (httpFlag === -1) await serveStdio();
else serveHttp(Number(process.argv[httpFlag + 1] ?? 0));
