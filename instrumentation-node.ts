import { watchPendingDeadlines } from './lib/approvals/approval-deadlines';
import { bootstrapListedUsers } from './lib/auth/bootstrap-roles';
import { ConfigError, getConfig } from './lib/config';
import { getDb } from './lib/db';
import { parseMcpToolName } from './lib/mcp/mcp-tool-name';
import { startMcpServers } from './lib/mcp/start-mcp-servers';
import type { PolicyNames } from './lib/policy/policy-file';
import { watchPolicyFile } from './lib/policy/policy-store';
import { captureServerScope } from './lib/server/outside-request';
import { refuseUnservableRequests } from './lib/server/refuse-unservable-requests';
import { stampClientAddresses } from './lib/server/stamp-client-address';
import { isToolName, toolFactsOf, toolNames } from './lib/tools/tool-catalog';

/**
 * Parsing the configuration at start-up turns a bad value (say a typo in
 * AGENT_CONFIRM_TOOLS, which must never silently turn approval off, or a broken
 * MCP_CONFIG file) into a failure to start. Next.js would only log the error and
 * keep serving requests that can only fail, so the process exits. MCP servers are
 * connected here too, so the first chat finds their tools ready, and approvals left
 * pending by an earlier run get their deadlines back. Every request is stamped with its
 * socket address first, so rate limits key on who really asked, and a method or a target
 * the app does not serve is answered (405, 400) before Next.js would fail on it.
 */
export async function startServer(): Promise<void> {
  stampClientAddresses();
  refuseUnservableRequests();
  captureServerScope();
  try {
    const config = getConfig();
    // A production server signs sessions with a secret every instance shares; never a made-up one.
    if (process.env.NODE_ENV === 'production' && config.BETTER_AUTH_SECRET === undefined) {
      throw new ConfigError(
        'BETTER_AUTH_SECRET is not set. It signs session cookies and must be the same on every instance: ' +
          'set it to 32 or more random characters (e.g. `openssl rand -base64 32`) before `next start`.',
      );
    }
    // Traces, only with a collector configured: otherwise no OpenTelemetry module is loaded.
    if (config.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined) {
      await (await import('./lib/telemetry/start-tracing')).startTracing(config);
    }
    await startMcpServers(
      config.AGENT_CONFIRM_TOOLS,
      config.TOOLGATE_POLICY?.rules.map((rule) => rule.tool),
    );
    // Approval webhooks, only with a receiver configured: one delivery loop per process.
    if (config.TOOLGATE_APPROVAL_WEBHOOK_URL !== undefined) {
      (await import('./lib/webhooks/start-webhook-deliveries')).startWebhookDeliveries(config);
    }
    // Mail to approvers, only with SMTP: the same outbox, its own loop per process.
    if (config.SMTP_URL !== undefined) {
      (await import('./lib/webhooks/start-mail-deliveries')).startMailDeliveries(config);
    }
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  // Approvals left pending before this start expire on time, not only when their chat is read.
  await watchPendingDeadlines();
  await bootstrapPolicyRoles();
  watchPolicyEdits();
}

/** An edited policy file is picked up without a restart; its roles follow it. */
function watchPolicyEdits(): void {
  const config = getConfig();
  const path = process.env.TOOLGATE_POLICY;
  if (config.TOOLGATE_POLICY === undefined || path === undefined) return;
  watchPolicyFile({
    path,
    names: policyNamesOf(Object.keys(config.MCP_CONFIG?.servers ?? {})),
    initial: config.TOOLGATE_POLICY,
    onChange: async ({ policy }) => bootstrapListedUsers(await getDb(), policy),
  });
}

/**
 * Verified accounts the policy file lists get their roles now, not only at their next
 * request (which gives them too, so a database that is down here costs nothing lasting).
 */
async function bootstrapPolicyRoles(): Promise<void> {
  try {
    await bootstrapListedUsers(await getDb(), getConfig().TOOLGATE_POLICY);
  } catch (error) {
    console.error('[toolgate] could not give the policy file’s roles at start-up:', error);
  }
}

/** What a reloaded policy may name: the built-in tools and those of the configured MCP servers, as at start-up. */
function policyNamesOf(servers: readonly string[]): PolicyNames {
  return {
    isKnownTool: (name) => {
      if (isToolName(name)) return true;
      const server = parseMcpToolName(name)?.server;
      return server !== undefined && servers.includes(server);
    },
    fieldsOf: (name) => {
      const facts = toolFactsOf(name);
      return facts === undefined ? undefined : Object.keys(facts.fieldLabels);
    },
    knownToolNames: [...toolNames, ...servers.map((server) => `${server}__<tool>`)],
  };
}
