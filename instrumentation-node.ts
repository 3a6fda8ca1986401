import { warmUpWords } from './lib/ai/nlu/words';
import { watchPendingDeadlines } from './lib/approvals';
import { bootstrapListedUsers } from './lib/auth/bootstrap-roles';
import { ConfigError } from './lib/config';
import { getDb } from './lib/db';
import { startMcpServers } from './lib/mcp/start-mcp-servers';
import type { Policy } from './lib/policy';
import { watchPolicyFile } from './lib/policy/policy-store';
import { captureServerScope } from './lib/server/outside-request';
import { refuseUnservableRequests } from './lib/server/refuse-unservable-requests';
import { endStreamsOnSignals } from './lib/server/shutdown';
import { stampClientAddresses } from './lib/server/stamp-client-address';
import {
  checkStartupConfiguration,
  checkToolsOfAnsweringServers,
} from './lib/startup/check-startup-configuration';
import { warnOfUnfillableSteps } from './lib/startup/warn-unfillable-steps';

/**
 * Checking the configuration at start-up (`checkStartupConfiguration`) turns a bad value
 * (say a typo in AGENT_CONFIRM_TOOLS, which must never silently turn approval off, or a
 * broken MCP_CONFIG or TOOLGATE_POLICY file) into a failure to start. Next.js would only log the error and
 * keep serving requests that can only fail, so the process exits. MCP servers are
 * connected here too, so the first chat finds their tools ready, and approvals left
 * pending by an earlier run get their deadlines back. Every request is stamped with its
 * socket address first, so rate limits key on who really asked, and a method or a target
 * the app does not serve is answered (405, 400) before Next.js would fail on it. Asked to
 * stop, the process ends its event and turn streams at once, so it exits promptly.
 */
export async function startServer(): Promise<void> {
  stampClientAddresses();
  refuseUnservableRequests();
  captureServerScope();
  // Asked to stop, the process ends its open streams, so it exits without waiting minutes on them.
  endStreamsOnSignals();
  let policy: Policy | undefined;
  try {
    const startup = checkStartupConfiguration();
    const { config } = startup;
    policy = startup.policy;
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
    const pool = await startMcpServers();
    if (pool !== undefined) checkToolsOfAnsweringServers(pool, startup);
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
  await bootstrapPolicyRoles(policy);
  // Steps nobody can fill are told to the operator (and such calls refused at once, no_approver).
  void getDb()
    .then((db) => warnOfUnfillableSteps(db, policy))
    .catch((error: unknown) =>
      console.error('[toolgate] policy: could not check who holds its roles:', error),
    );
  // An edited policy file is picked up without a restart, checked as at start-up; its roles follow it.
  watchPolicyFile({
    onChange: async ({ policy: edited }) => {
      const db = await getDb();
      await bootstrapListedUsers(db, edited);
      await warnOfUnfillableSteps(db, edited);
    },
  });
  // The offline model's word segmenter and sentence reader load after start-up, not on the first message.
  setImmediate(warmUpWords);
}

/**
 * Verified accounts the policy file lists get their roles now, not only at their next
 * request (which gives them too, so a database that is down here costs nothing lasting).
 */
async function bootstrapPolicyRoles(policy: Policy | undefined): Promise<void> {
  try {
    await bootstrapListedUsers(await getDb(), policy);
  } catch (error) {
    console.error('[toolgate] could not give the policy file’s roles at start-up:', error);
  }
}
