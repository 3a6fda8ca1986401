/**
 * An MCP server's tools under Toolgate's shells, end to end and offline.
 *
 *   npm run examples:mcp
 *
 * Starts the example notes server (examples/mcp-server/notes-server.mjs) over stdio
 * through an MCP_CONFIG file, merges its tools into a worker's table and runs the
 * offline model on `/tool …` messages with the same shells a chat turn uses:
 *
 * 1. the read-only `notes__list_notes` runs at once, no approval;
 * 2. the destructive `notes__delete_note` waits for a person (this script allows it);
 * 3. the same call again in the same chat is allowed again and answered as a replay:
 *    the server's own call log shows it ran once;
 * 4. a denied call never reaches the server.
 *
 * Run with the `react-server` condition (the npm script does), so modules marked
 * `server-only` load outside Next.js.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createMemoryApprovalRegistry, createMemoryIdempotencyStore } from '@toolgate/engine';
import { generateText, stepCountIs } from 'ai';
import { createOfflineModel } from '../lib/ai/offline-model';
import { closeMcpServerPool } from '../lib/mcp/mcp-server-pool';
import { mergeMcpTools, waitForMcpServers } from '../lib/mcp/merge-mcp-tools';
import { assembleTurnTools } from '../lib/turn-table/assemble-turn-tools';

const folder = mkdtempSync(join(tmpdir(), 'toolgate-mcp-example-'));
const callLog = join(folder, 'calls.jsonl');
const configPath = join(folder, 'mcp.json');
writeFileSync(
  configPath,
  JSON.stringify({
    servers: {
      notes: {
        command: process.execPath,
        args: [resolve('examples/mcp-server/notes-server.mjs')],
        env: { NOTES_MCP_CALL_LOG: callLog },
        worker: 'notes',
      },
    },
  }),
);
process.env.MCP_CONFIG = configPath;

const chatId = 'mcp-example';
// The person deciding: only the chat's owner may answer its cards.
const ownerId = 'example-user';
const registry = createMemoryApprovalRegistry();
const store = createMemoryIdempotencyStore();
const model = createOfflineModel();
let nextDecision = true;

function serverCalls(tool: string): number {
  try {
    return readFileSync(callLog, 'utf8')
      .split('\n')
      .filter((line) => line.includes(`"tool":"${tool}"`)).length;
  } catch {
    return 0;
  }
}

async function send(text: string) {
  console.log(`\nuser: ${text}`);
  const { tools: baseTools, confirmTools, writeTools } = mergeMcpTools('notes', {});
  const tools = assembleTurnTools({
    baseTools,
    worker: 'notes',
    chatId,
    ownerId,
    approval: {
      confirmTools,
      registry,
      timeoutMs: 10_000,
      // The card: this script plays the person and answers right away.
      emit: (event) => {
        console.log(
          `  card   ${event.toolName}(${JSON.stringify(event.input)}) → ${nextDecision ? 'Allow' : 'Deny'}`,
        );
        setTimeout(() => void registry.resolve(event.approvalId, chatId, nextDecision, ownerId), 0);
      },
    },
    store,
    writeTools,
    audit: (row) => console.log(`  audit  ${row.toolName}: ${row.outcome}`),
  });
  const result = await generateText({ model, tools, prompt: text, stopWhen: stepCountIs(3) });
  for (const step of result.steps) {
    for (const toolResult of step.toolResults) {
      console.log(`  result ${JSON.stringify(toolResult.output)}`);
    }
  }
  console.log(`  agent  ${result.text.replace(/\n/g, '\n         ')}`);
}

async function main() {
  await waitForMcpServers();
  await send('/tool notes__list_notes {}');
  await send('/tool notes__delete_note {"id":"n1"}');
  await send('/tool notes__delete_note {"id":"n1"}');
  nextDecision = false;
  await send('/tool notes__delete_note {"id":"n2"}');
  const deletes = serverCalls('delete_note');
  console.log(
    `\nThe notes server ran delete_note ${deletes} time(s): once allowed, once replayed, once denied.`,
  );
  if (deletes !== 1) throw new Error(`expected the server to run delete_note once, it ran ${deletes} times`);
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(async () => {
    await closeMcpServerPool();
    rmSync(folder, { recursive: true, force: true });
  });
