import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { type Browser, expect, type Page } from '@playwright/test';
import type { ChatPage } from './chat';

/*
 * Accounts for the specs that run against the server with the approval policy (the
 * `approvers` project): verified requesters and supervisors, made through the sign-up API
 * and the operators' CLI.
 */

const password = 'a long unusual passphrase for tests';

/** The command loop of this worker, started at its first command. */
let commandLoop: ReturnType<typeof startCommandLoop> | undefined;
/** The command before this one: they run one at a time, in the order asked. */
let previous: Promise<unknown> = Promise.resolve();

/**
 * The operators' CLI against the approvers server's database (`npm run users -- …`), in one
 * process per worker (`e2e/support/users-command-loop.ts`). Rejects, as a failed process would,
 * when the command exits other than 0. It runs without blocking, so the request client notices
 * a kept-alive socket the server closed meanwhile.
 */
export function users(...args: string[]): Promise<void> {
  const run = previous.then(async () => {
    commandLoop ??= startCommandLoop();
    const { child, answers } = commandLoop;
    child.stdin.write(`${JSON.stringify(args)}\n`);
    const { value, done } = await answers.next();
    if (done) throw new Error(`npm run users -- ${args.join(' ')}: the command loop ended`);
    const { code, said } = JSON.parse(value) as { code: number; said: string };
    if (code !== 0) throw new Error(`npm run users -- ${args.join(' ')} exited ${code}: ${said}`);
  });
  previous = run.catch(() => undefined);
  return run;
}

function startCommandLoop() {
  const child = spawn(
    process.execPath,
    ['node_modules/tsx/dist/cli.mjs', 'e2e/support/users-command-loop.ts'],
    {
      env: { ...process.env, DATABASE_PATH: process.env.E2E_APPROVERS_DATABASE_PATH, DATABASE_URL: '' },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  return { child, answers: createInterface({ input: child.stdout })[Symbol.asyncIterator]() };
}

/** A fresh email for `slug`, unique in the run. */
function emailFor(slug: string): string {
  return `${slug}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** Signs `page`'s browser up as `name`, verifies the account (and grants `role`), then signs it in. */
export async function signInVerified(
  page: Page,
  baseURL: string | undefined,
  name: string,
  { slug = 'requester', role }: { slug?: string; role?: string } = {},
): Promise<string> {
  const email = emailFor(slug);
  const signUp = await page.request.post('/api/auth/sign-up/email', {
    data: { email, password, name },
    headers: { origin: baseURL ?? '' },
  });
  expect(signUp.ok()).toBe(true);
  await users('verify', email);
  if (role !== undefined) await users('grant', email, role);
  const signIn = await page.request.post('/api/auth/sign-in/email', {
    data: { email, password },
    headers: { origin: baseURL ?? '' },
  });
  expect(signIn.ok()).toBe(true);
  return email;
}

/**
 * Two verified supervisors that exist before any request: a role step must have someone who
 * can fill it when it is asked, or the call is refused at once (`no_approver`).
 */
export async function ensureStandingSupervisors(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL });
  for (const slug of ['standing-sup-1', 'standing-sup-2']) {
    const email = emailFor(slug);
    const signUp = await context.request.post('/api/auth/sign-up/email', {
      data: { email, password, name: slug },
      headers: { origin: baseURL ?? '' },
    });
    expect(signUp.ok()).toBe(true);
    await users('verify', email);
    await users('grant', email, 'supervisor');
  }
  await context.close();
}

/** A verified supervisor signed in, in a browser of their own, with the inbox open. */
export async function supervisorInbox(
  browser: Browser,
  baseURL: string | undefined,
  name: string,
  slug: string,
) {
  const context = await browser.newContext({ baseURL, locale: 'zh-CN' });
  const page = await context.newPage();
  await page.goto('/');
  await signInVerified(page, baseURL, name, { slug: `inbox-${slug}`, role: 'supervisor' });
  await page.goto('/approvals');
  return { context, page };
}

/** Asks for a ticket titled `title` in a new chat of the (already signed-in) requester: its card and approval id. */
export async function askForTicket(chatPage: ChatPage, title: string) {
  await chatPage.goto('/');
  await chatPage.send(`帮我创建一个工单：${title}`);
  const card = chatPage.toolCards('createTicket').last();
  await expect(card.getByTestId('approval-waiting-for')).toBeVisible();
  const approvalId = (await card.getAttribute('data-approval-id')) ?? '';
  expect(approvalId).not.toBe('');
  return { card, approvalId };
}
