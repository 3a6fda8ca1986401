/**
 * Vitest setup file of the integration project: runs before each file, so every file starts as
 * it would in a process of its own, whether the files get a process each (as now) or share one
 * (`isolate: false`).
 *
 * - The environment is put back as the process started (a policy file or an MCP config one
 *   file named must not reach the next), and the configuration read from it is forgotten.
 * - What a process starts once and keeps is ended: the deadline keeper, the webhook and mail
 *   delivery loops (started with the previous file's receiver and SMTP addresses), the
 *   webhook budgets and the metrics' counts, and the previous file's database connections.
 */
// Nothing here imports the app: a file that never loads it pays nothing for this setup.
import { forgetConfiguration, retireDeadlineKeeper } from '../support/process-globals';

type Globals = Record<string, unknown> & {
  __toolgateTestStartEnvironment?: Record<string, string | undefined>;
  __toolgateWebhookLoops?: Set<{ stop: () => Promise<void> }>;
  __toolgateDatabases?: Map<string, Promise<{ destroy(): Promise<void> }>>;
};

const globals = globalThis as Globals;
globals.__toolgateTestStartEnvironment ??= { ...process.env };
const startEnvironment = globals.__toolgateTestStartEnvironment;
for (const key of Object.keys(process.env)) if (!(key in startEnvironment)) delete process.env[key];
Object.assign(process.env, startEnvironment);
forgetConfiguration();

await retireDeadlineKeeper();
await Promise.all(
  [...(globals.__toolgateWebhookLoops ?? [])].map((loop) => loop.stop().catch(() => undefined)),
);
for (const key of [
  '__toolgateWebhookLoops',
  '__toolgateWebhookDeliveries',
  '__toolgateMailDeliveries',
  '__toolgateWebhookBudgets',
  '__toolgateMetrics',
])
  delete globals[key];
const databases = globals.__toolgateDatabases;
await Promise.all(
  [...(databases?.values() ?? [])].map((db) => db.then((open) => open.destroy()).catch(() => undefined)),
);
databases?.clear();
