import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, testAuthSecret, testDistDir } from '../support/next-server';
import { notesServerFiles, notesStdioServer, writeMcpConfig } from '../support/notes-mcp-server';

/** Starts `next start` with the environment and resolves with its exit code and output. */
async function startAndWaitForExit(environment: Record<string, string>) {
  const child = spawn(
    'node_modules/.bin/next',
    ['start', '-p', String(await freePort()), '-H', '127.0.0.1'],
    {
      env: {
        ...process.env,
        NEXT_DIST_DIR: testDistDir,
        NODE_ENV: 'production',
        BETTER_AUTH_SECRET: testAuthSecret,
        ...environment,
      },
    },
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
  it('refuses to start in production without BETTER_AUTH_SECRET, saying how to make one', async () => {
    const { code, output } = await startAndWaitForExit({ BETTER_AUTH_SECRET: '' });
    expect(code).toBe(1);
    expect(output).toContain('BETTER_AUTH_SECRET is not set');
  });

  it('refuses to start when AGENT_CONFIRM_TOOLS names an unknown tool, listing the known ones', async () => {
    const { code, output } = await startAndWaitForExit({ AGENT_CONFIRM_TOOLS: 'createTikcet' });
    expect(code).toBe(1);
    expect(output).toContain('"createTikcet"');
    expect(output).toContain(
      'known tools: getOrderStatus, createTicket, searchKnowledgeBase, addTodo, listTodos',
    );
  });

  it('refuses to start with a bad MCP_CONFIG file, saying which field is wrong', async () => {
    const files = notesServerFiles();
    const path = join(files.folder, 'bad-mcp.json');
    writeFileSync(path, JSON.stringify({ servers: { notes: { command: 'node', aproval: 'never' } } }));
    const { code, output } = await startAndWaitForExit({ MCP_CONFIG: path });
    expect(code).toBe(1);
    expect(output).toContain(`MCP_CONFIG "${path}": servers.notes.worker: worker is required`);
    expect(output).toContain('servers.notes: Unrecognized key: "aproval"');
  });

  it('refuses to start with a bad TOOLGATE_POLICY file, naming the field', async () => {
    const files = notesServerFiles();
    const path = join(files.folder, 'bad-policy.json');
    writeFileSync(
      path,
      JSON.stringify({
        rules: [
          { tool: 'createTicket', approvers: ['requester'] },
          { tool: 'createTicket', when: { title: { eq: 'x', gt: '5' } }, effect: 'deny' },
        ],
      }),
    );
    const { code, output } = await startAndWaitForExit({ TOOLGATE_POLICY: path });
    expect(code).toBe(1);
    expect(output).toContain('TOOLGATE_POLICY rules[1].when.title.gt: expected a number');
    writeFileSync(path, JSON.stringify({ rules: [{ tool: 'createTicket', effect: 'allow' }] }));
    const effect = await startAndWaitForExit({ TOOLGATE_POLICY: path });
    expect(effect.code).toBe(1);
    expect(effect.output).toContain('TOOLGATE_POLICY rules[0].effect: effect is "deny"');
  });

  it('refuses to start when AGENT_CONFIRM_TOOLS misspells a tool of a reachable MCP server', async () => {
    const files = notesServerFiles();
    const path = writeMcpConfig(files, { notes: notesStdioServer(files, { worker: 'notes' }) });
    const { code, output } = await startAndWaitForExit({
      MCP_CONFIG: path,
      AGENT_CONFIRM_TOOLS: 'createTicket,notes__list_note',
    });
    expect(code).toBe(1);
    expect(output).toContain('"notes__list_note"');
    expect(output).toMatch(/known tools: .*notes__list_notes, notes__delete_note/);
  });

  it('refuses to start when a TOOLGATE_POLICY rule misspells a tool of a reachable MCP server', async () => {
    const files = notesServerFiles();
    const mcpPath = writeMcpConfig(files, { notes: notesStdioServer(files, { worker: 'notes' }) });
    const policyPath = join(files.folder, 'policy.json');
    writeFileSync(policyPath, JSON.stringify({ rules: [{ tool: 'notes__delete_not', effect: 'deny' }] }));
    const { code, output } = await startAndWaitForExit({ MCP_CONFIG: mcpPath, TOOLGATE_POLICY: policyPath });
    expect(code).toBe(1);
    expect(output).toContain('TOOLGATE_POLICY names unknown tool(s) "notes__delete_not"');
    expect(output).toMatch(/known tools: .*notes__delete_note/);
  });
});
