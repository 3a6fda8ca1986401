/**
 * The operators' account commands (`npm run users -- …`, `scripts/users.ts`) for the e2e specs,
 * one after another in one process: each line on stdin is a command's arguments as a JSON
 * array, and each answer is one line of JSON on stdout, `{ code, said }` (its exit code and
 * what it printed). The process ends when stdin closes, with the Playwright worker that
 * started it. Started with tsx once per worker, it spares each command the seconds a `tsx`
 * start-up takes; the command itself is the one operators run.
 */
import { createInterface } from 'node:readline';
import { runUsersCommand } from '../../scripts/users';

async function answerEachLine(): Promise<void> {
  for await (const line of createInterface({ input: process.stdin })) {
    const said: string[] = [];
    const code = await runUsersCommand(JSON.parse(line) as string[], {
      environment: process.env,
      out: (text) => said.push(text),
      error: (text) => said.push(text),
    });
    process.stdout.write(`${JSON.stringify({ code, said: said.join('\n') })}\n`);
  }
}

void answerEachLine();
