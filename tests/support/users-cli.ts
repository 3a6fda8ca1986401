import { spawn } from 'node:child_process';
import { runUsersCommand } from '@/scripts/users';

/** What a run of the operators' CLI said and how it ended. */
export type UsersRun = { code: number | null; stdout: string; stderr: string };

/**
 * The environment a run reads: the database, the admin list, the policy file and Redis the
 * tests name, and nothing else (empty rather than absent, so a developer's `.env` cannot
 * point the command elsewhere).
 */
function environmentOf(environment: Record<string, string | undefined>): Record<string, string | undefined> {
  return {
    NODE_ENV: 'production',
    DATABASE_URL: '',
    TOOLGATE_ADMIN_EMAILS: '',
    TOOLGATE_POLICY: '',
    ...environment,
  };
}

/**
 * `npm run users -- …` as the operator runs it: a `tsx scripts/users.ts` process, with its
 * exit code and output. Seconds each (tsx's start-up): for what is about the process.
 */
export function runUsersProcess(
  environment: Record<string, string | undefined>,
  ...args: string[]
): Promise<UsersRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('node_modules/.bin/tsx', ['scripts/users.ts', ...args], {
      env: { ...environmentOf(environment), NODE_ENV: 'production', PATH: process.env.PATH },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The same command run in this process (`runUsersCommand`, what the script calls), with the
 * exit code it would have and what it would print: for tests about what the command does
 * to accounts, without a process start per run.
 */
export async function runUsersInProcess(
  environment: Record<string, string | undefined>,
  ...args: string[]
): Promise<UsersRun> {
  let stdout = '';
  let stderr = '';
  const code = await runUsersCommand(args, {
    environment: environmentOf(environment),
    out: (text) => {
      stdout += `${text}\n`;
    },
    error: (text) => {
      stderr += `${text}\n`;
    },
  });
  return { code, stdout, stderr };
}
