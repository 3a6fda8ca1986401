import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAuth } from '@/lib/auth/get-auth';
import { findAccountByEmail, getDb, markEmailVerified } from '@/lib/db';
import type { DatabaseEngine } from '@/lib/db/engine';
import { setDefaultTestCookie } from './chat-client';
import { startUpAgain } from './process-configuration';
import { retireDeadlineKeeper } from './process-globals';
import { createEmptyDatabase } from './test-database';

const singletonKeys = [
  '__toolgateIdempotencyStore',
  '__toolgateApprovalRegistry',
  '__toolgateRateLimiter',
  '__toolgateStreamContext',
  '__toolgateRunningTurns',
  '__toolgateClientLimiters',
  '__toolgateAuthLimiters',
  '__toolgateUserTurnLimiter',
  '__toolgateApprovalEvents',
];

/**
 * Points the server code at a fresh SQLite file and the given environment, forgets the
 * process singletons so the next request builds them from it, and signs in a guest whose
 * session `jsonRequest` sends by default. Returns the database path.
 */
export async function configureServer(environment: Record<string, string | undefined> = {}): Promise<string> {
  const databasePath = join(mkdtempSync(join(tmpdir(), 'toolgate-test-')), 'toolgate.db');
  const defaults: Record<string, string | undefined> = {
    DATABASE_PATH: databasePath,
    DATABASE_URL: undefined,
    AI_MODEL: 'offline',
    OFFLINE_MODEL_DELAY_MS: '0',
    AGENT_CONFIRM_TOOLS: undefined,
    AGENT_CONFIRM_TIMEOUT_MS: undefined,
    TOOLGATE_PARK_AFTER_MS: undefined,
    TOOLGATE_EVENT_STREAM_LIFE_MS: undefined,
    TOOLGATE_PROVENANCE: undefined,
    AGENT_TOOL_RATE_LIMIT: undefined,
    REDIS_URL: undefined,
    OPENAI_API_KEY: undefined,
    OPENAI_BASE_URL: undefined,
    BETTER_AUTH_SECRET: 'test-secret-that-is-long-enough-for-better-auth',
    BETTER_AUTH_URL: 'http://localhost',
    TOOLGATE_ADMIN_EMAILS: undefined,
    // The suites make many guests and sign-ins from one address; tests of the limits set their own.
    TOOLGATE_GUEST_RATE_LIMIT: '100000/1m',
    TOOLGATE_SIGNIN_RATE_LIMIT: '100000/1m',
    TOOLGATE_SIGNIN_FAILURE_LIMIT: '100000/1m',
    TOOLGATE_VERIFICATION_MAIL_LIMIT: '100000/1m',
    SMTP_URL: undefined,
    TOOLGATE_ALLOW_UNVERIFIED_SIGNUP: undefined,
    TOOLGATE_TURN_RATE_LIMIT: undefined,
    // Suites drive hundreds of turns as one guest; the tests of this limit set it themselves.
    TOOLGATE_USER_TURN_RATE_LIMIT: 'off',
    TOOLGATE_MAX_PENDING_APPROVALS: undefined,
    TOOLGATE_TRUST_PROXY: undefined,
    TOOLGATE_ALLOWED_IMAGE_ORIGINS: undefined,
    TOOLGATE_UNDO_WINDOW_MS: undefined,
    TOOLGATE_FAULT: undefined,
    TOOLGATE_TESTING: undefined,
    TOOLGATE_APPROVAL_WEBHOOK_URL: undefined,
    TOOLGATE_WEBHOOK_SECRET: undefined,
  };
  for (const [key, value] of Object.entries({ ...defaults, ...environment })) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await retireDeadlineKeeper();
  const globals = globalThis as Record<string, unknown>;
  for (const key of singletonKeys) delete globals[key];
  startUpAgain();
  // Close the previous test's connections: a Postgres pool left open holds its sockets.
  const databases = globals.__toolgateDatabases as
    | Map<string, Promise<{ destroy(): Promise<void> }>>
    | undefined;
  for (const db of databases?.values() ?? []) db.then((open) => open.destroy()).catch(() => undefined);
  databases?.clear();
  setDefaultTestCookie(await signInGuest());
  return process.env.DATABASE_PATH as string;
}

/**
 * `configureServer` on a fresh database of `engine`: a new SQLite file, or a new database
 * in the run's throwaway Postgres cluster.
 */
export async function configureServerOn(
  engine: DatabaseEngine,
  environment: Record<string, string | undefined> = {},
): Promise<void> {
  const target = await createEmptyDatabase(engine);
  await configureServer({ ...target.environment, ...environment });
}

/** The `cookie` header of a new guest session on the configured server (another user). */
export async function signInGuest(): Promise<string> {
  const response = await (await getAuth()).api.signInAnonymous({ headers: new Headers(), asResponse: true });
  return cookieHeaderOf(response);
}

/** A `cookie` request header holding every cookie a response sets. */
export function cookieHeaderOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

/**
 * The `cookie` header of a new account whose email is verified (as after following the
 * mailed link): an admin when its email is in TOOLGATE_ADMIN_EMAILS.
 */
export async function signUpUser(email: string): Promise<string> {
  const auth = await getAuth();
  const password = 'a long unusual passphrase for tests';
  const signedUp = await auth.api.signUpEmail({
    body: { email, password, name: email.split('@')[0] ?? email },
    headers: new Headers(),
    asResponse: true,
  });
  if (!signedUp.ok) throw new Error(`sign-up of ${email} failed: ${signedUp.status}`);
  const db = await getDb();
  const account = await findAccountByEmail(db, email);
  if (account === undefined) throw new Error(`no account for ${email} after its sign-up`);
  await markEmailVerified(db, account.id);
  const signedIn = await auth.api.signInEmail({
    body: { email, password },
    headers: new Headers(),
    asResponse: true,
  });
  if (!signedIn.ok) throw new Error(`sign-in of ${email} failed: ${signedIn.status}`);
  return cookieHeaderOf(signedIn);
}
