import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '@/lib/config';
import { checkStartupConfiguration } from '@/lib/startup/check-startup-configuration';

function configFile(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'toolgate-mcp-config-')), 'mcp.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const servers = {
  mail: { command: 'node', args: ['mail-server.mjs'], env: { K: 'V' }, worker: 'mailer' },
  files: {
    url: 'http://127.0.0.1:8931/mcp',
    headers: { Authorization: 'x' },
    worker: 'assistant',
    approval: 'always',
    trust: 'trusted',
  },
};

describe('checkStartupConfiguration with MCP_CONFIG', () => {
  it('reads stdio and Streamable HTTP servers, approval "auto" and trust "untrusted" by default', () => {
    const { mcp } = checkStartupConfiguration({ MCP_CONFIG: configFile({ servers }) });
    expect(mcp?.servers).toEqual({
      mail: { ...servers.mail, approval: 'auto', trust: 'untrusted' },
      files: servers.files,
    });
  });

  it('stops on a trust other than "trusted" or "untrusted", naming the field', () => {
    const path = configFile({ servers: { mail: { command: 'node', worker: 'mailer', trust: 'yes' } } });
    expect(() => checkStartupConfiguration({ MCP_CONFIG: path })).toThrow(
      'servers.mail.trust: trust is "trusted" or "untrusted"',
    );
  });

  it('stops with every problem of a bad file, each naming its field', () => {
    const path = configFile({
      servers: {
        mail: { command: 'node', approval: 'sometimes' },
        web: { url: 'ftp://example.com', worker: 'web' },
        both: { command: 'node', url: 'http://127.0.0.1/mcp', worker: 'x' },
        two__parts: { command: 'node', worker: 'x' },
      },
    });
    let error: unknown;
    try {
      checkStartupConfiguration({ MCP_CONFIG: path });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain(`MCP_CONFIG "${path}": servers.mail.worker: worker is required`);
    expect(message).toContain('servers.mail.approval: approval is "auto", "always" or "never"');
    expect(message).toContain('servers.web.url: url must be an http:// or https:// URL');
    expect(message).toContain('servers.both: give either command (stdio) or url (Streamable HTTP), not both');
    expect(message).toContain('servers.two__parts: a server name holds letters and digits');
  });

  it('says so when the file is missing or not JSON', () => {
    expect(() => checkStartupConfiguration({ MCP_CONFIG: '/nowhere/mcp.json' })).toThrow(
      /MCP_CONFIG: cannot read "\/nowhere\/mcp.json"/,
    );
    expect(() => checkStartupConfiguration({ MCP_CONFIG: configFile('{ servers: ') })).toThrow(
      /is not valid JSON/,
    );
  });

  it('accepts MCP tool names in AGENT_CONFIRM_TOOLS but still rejects an unknown server', () => {
    const path = configFile({ servers });
    expect([
      ...checkStartupConfiguration({ MCP_CONFIG: path, AGENT_CONFIRM_TOOLS: 'mail__send' }).confirmTools,
    ]).toEqual(['mail__send']);
    expect(() => checkStartupConfiguration({ MCP_CONFIG: path, AGENT_CONFIRM_TOOLS: 'mial__send' })).toThrow(
      /"mial__send".*or <server>__<tool> for MCP servers mail, files/,
    );
  });
});
