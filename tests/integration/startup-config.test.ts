import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { freePort, testDistDir } from '../support/next-server';

/** Starts `next start` with the environment and resolves with its exit code and output. */
async function startAndWaitForExit(environment: Record<string, string>) {
  const child = spawn(
    'node_modules/.bin/next',
    ['start', '-p', String(await freePort()), '-H', '127.0.0.1'],
    { env: { ...process.env, NEXT_DIST_DIR: testDistDir, NODE_ENV: 'production', ...environment } },
  );
  let output = '';
  child.stdout.on('data', (data) => {
    output += data;
  });
  child.stderr.on('data', (data) => {
    output += data;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  return { code, output };
}

describe('server start-up', () => {
  it('refuses to start when AGENT_CONFIRM_TOOLS names an unknown tool, listing the known ones', async () => {
    const { code, output } = await startAndWaitForExit({ AGENT_CONFIRM_TOOLS: 'createTikcet' });
    expect(code).toBe(1);
    expect(output).toContain('"createTikcet"');
    expect(output).toContain(
      'known tools: getOrderStatus, createTicket, searchKnowledgeBase, addTodo, listTodos',
    );
  });
});
