import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '@/lib/config';
import { getPolicy } from '@/lib/policy';
import { checkStartupConfiguration } from '@/lib/startup/check-startup-configuration';
import { forgetConfiguration } from '../support/process-globals';

function jsonFile(name: string, content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'toolgate-startup-')), name);
  writeFileSync(path, JSON.stringify(content));
  return path;
}

describe('checkStartupConfiguration', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    forgetConfiguration();
  });

  it('lists every problem in one error: a variable, the MCP file, AGENT_CONFIRM_TOOLS and the policy file', () => {
    const mcp = jsonFile('mcp.json', { servers: { mail: { command: 'node' } } });
    const policy = jsonFile('policy.json', {
      rules: [{ tool: 'createTicket', when: { titel: { eq: 'x' } }, effect: 'deny' }],
    });
    let error: unknown;
    try {
      checkStartupConfiguration({
        AGENT_CONFIRM_TIMEOUT_MS: '-5',
        AGENT_CONFIRM_TOOLS: 'createTikcet',
        MCP_CONFIG: mcp,
        TOOLGATE_POLICY: policy,
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message.split('\n')).toEqual([
      'Invalid Toolgate configuration:',
      '- AGENT_CONFIRM_TIMEOUT_MS must be a positive integer, got "-5"',
      `- MCP_CONFIG "${mcp}": servers.mail.worker: worker is required: the worker whose table gets this server’s tools`,
      expect.stringMatching(
        /^- AGENT_CONFIRM_TOOLS names unknown tool\(s\) "createTikcet"; known tools: getOrderStatus,/,
      ),
      expect.stringMatching(
        /^- TOOLGATE_POLICY rules\[0\]\.when\.titel: createTicket has no input field "titel"/,
      ),
    ]);
  });

  it('puts the policy file in force: a process that never checked it refuses to judge calls', () => {
    const path = jsonFile('policy.json', { rules: [{ tool: 'issueRefund', effect: 'deny' }] });
    vi.stubEnv('TOOLGATE_POLICY', path);
    forgetConfiguration();
    expect(() => getPolicy()).toThrow(`the policy file "${path}" (TOOLGATE_POLICY) is not loaded`);
    checkStartupConfiguration();
    expect(getPolicy()?.rules).toEqual([{ tool: 'issueRefund', effect: 'deny' }]);
  });
});
