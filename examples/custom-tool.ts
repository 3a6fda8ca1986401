/**
 * The tool triple in action, offline and without a server.
 *
 *   npm run examples:custom-tool
 *
 * Part 1: one request, two tools. "加一个待办：买牛奶，然后列出我的待办" goes through the AI SDK
 * loop with the assistant worker's table (addTodo, listTodos); the model calls addTodo, reads
 * its result, calls listTodos, then answers.
 *
 * Part 2: the same table wrapped in the idempotency shell. The same request sent twice in one
 * scope executes addTodo once: the list holds exactly one new item.
 *
 * Imports are relative and skip every module that imports `server-only` (which throws outside
 * Next.js): the example opens its own database file instead of using the server's `getDb`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryIdempotencyStore, wrapToolsWithIdempotency } from '@toolgate/engine';
import { generateText, type StepResult, stepCountIs, type ToolSet } from 'ai';
import { createOfflineModel } from '../lib/ai/offline-model';
import { openDatabase } from '../lib/db/open-database';
import { selectTodos } from '../lib/db/todos';
import { createWorkerTools } from '../lib/tools/registry';
import { writeToolNames } from '../lib/tools/tool-catalog';

const model = createOfflineModel();

function printSteps(steps: StepResult<ToolSet>[]): void {
  steps.forEach((step, index) => {
    for (const call of step.toolCalls) {
      console.log(`  step ${index + 1}  call   ${call.toolName}(${JSON.stringify(call.input)})`);
    }
    for (const result of step.toolResults) {
      console.log(`  step ${index + 1}  result ${result.toolName} → ${JSON.stringify(result.output)}`);
    }
    if (step.text !== '')
      console.log(`  step ${index + 1}  answer\n${step.text.replace(/^(?=.)/gm, '    ')}`);
  });
}

async function ask(tools: ToolSet, prompt: string) {
  console.log(`\nuser: ${prompt}`);
  const result = await generateText({ model, tools, prompt, stopWhen: stepCountIs(5) });
  printSteps(result.steps);
  return result;
}

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'toolgate-example-'));
  const db = await openDatabase({ path: join(folder, 'example.db') });
  try {
    console.log('Part 1 — one request, two tools (assistant worker: addTodo, listTodos)');
    const table = createWorkerTools('assistant', db, { userId: 'example-user' });
    const first = await ask(table, '加一个待办：买牛奶，然后列出我的待办');
    const calledTools = first.steps.flatMap((step) => step.toolCalls.map((call) => call.toolName));
    console.log(`\n  tools called, in order: ${calledTools.join(' → ')}`);

    console.log('\nPart 2 — the same table inside the idempotency shell (scope "example")');
    const guarded = wrapToolsWithIdempotency(table, createMemoryIdempotencyStore(), {
      scope: 'example',
      tools: writeToolNames,
    });
    const title = '给植物浇水';
    await ask(guarded, `加一个待办：${title}`);
    await ask(guarded, `加一个待办：${title}`);
    const copies = (await selectTodos(db, { userId: 'example-user' })).filter(
      (todo) => todo.title === title,
    ).length;
    console.log(
      `\n  "${title}" appears ${copies} time(s) in the list: the second call was a replay, not a new row.`,
    );
    if (copies !== 1) throw new Error(`expected exactly one "${title}", found ${copies}`);
  } finally {
    await db.destroy();
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
