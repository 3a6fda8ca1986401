/**
 * `npm run policy -- <command>` — try a policy file before enforcing it, on the app's
 * configuration and database (`.env.local` and `.env` in this folder are read first, as
 * Next.js reads them):
 *
 *   check <file>                               validate it as the server would at start-up
 *   replay <file> [--since <ISO date>] [--json] judge the saved write calls under it, per rule,
 *                                              beside what happened; read-only
 *
 * Exits 0 on success, 1 when the file is invalid, 2 on a wrong command.
 */
import { existsSync } from 'node:fs';
import { runPolicyCommand } from '../lib/startup/policy-command';

for (const file of ['.env.local', '.env']) if (existsSync(file)) process.loadEnvFile(file);

runPolicyCommand(process.argv.slice(2), {
  environment: process.env,
  out: (text) => console.log(text),
  error: (text) => console.error(text),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`policy: ${(error as Error).message}`);
    process.exitCode = 1;
  },
);
