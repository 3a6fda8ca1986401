#!/usr/bin/env node
/**
 * A small mail MCP server for the provenance tests: `read_inbox` (read-only) returns the mail
 * in the JSON file `MAIL_INBOX_FILE` (a test writes an attacker's mail there), `send_mail`
 * (a write) logs what it would send to `MAIL_CALL_LOG`, one JSON line per call.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const text = (value) => ({ content: [{ type: 'text', text: value }] });

function inbox() {
  const file = process.env.MAIL_INBOX_FILE;
  if (!file || !existsSync(file)) return [];
  return JSON.parse(readFileSync(file, 'utf8'));
}

const server = new McpServer({ name: 'toolgate-test-mail', version: '1.0.0' });
server.registerTool(
  'read_inbox',
  {
    title: 'Read the inbox',
    description: 'Read the newest mail in the inbox (sender, subject and body).',
    inputSchema: {},
    annotations: { readOnlyHint: true },
  },
  async () =>
    text(
      inbox()
        .map((mail) => `From: ${mail.from}\nSubject: ${mail.subject}\n\n${mail.body}`)
        .join('\n\n---\n\n') || 'The inbox is empty.',
    ),
);
server.registerTool(
  'send_mail',
  {
    title: 'Send a mail',
    description: 'Send a mail.',
    inputSchema: { to: z.string().min(3).max(200), subject: z.string().max(200), body: z.string().max(4000) },
    annotations: { readOnlyHint: false },
  },
  async (args) => {
    if (process.env.MAIL_CALL_LOG) appendFileSync(process.env.MAIL_CALL_LOG, `${JSON.stringify(args)}\n`);
    return text(`Sent to ${args.to}.`);
  },
);
await server.connect(new StdioServerTransport());
process.stdin.on('end', () => process.exit(0));
process.stdin.on('close', () => process.exit(0));
