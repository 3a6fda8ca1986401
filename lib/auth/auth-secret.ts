import 'server-only';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError } from '@/lib/config';

/** Where development keeps the secret it generated, so sessions survive a restart of `next dev`. */
export const developmentSecretPath = join('.data', 'auth-secret');

/**
 * The secret that signs session cookies. Production must set `BETTER_AUTH_SECRET` (a secret
 * that changes with every start would sign everybody out, and one written to disk by the
 * app would be easy to leak). In development one is generated once and kept under `.data/`.
 */
export function resolveAuthSecret(
  configured: string | undefined,
  { production }: { production: boolean },
): string {
  if (configured !== undefined) return configured;
  if (production) {
    throw new ConfigError(
      'BETTER_AUTH_SECRET is not set. It signs session cookies and must be the same on every instance: ' +
        'set it to 32 or more random characters (e.g. `openssl rand -base64 32`).',
    );
  }
  if (existsSync(developmentSecretPath)) return readFileSync(developmentSecretPath, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  mkdirSync(dirname(developmentSecretPath), { recursive: true });
  writeFileSync(developmentSecretPath, `${secret}\n`, { mode: 0o600 });
  chmodSync(developmentSecretPath, 0o600);
  return secret;
}
