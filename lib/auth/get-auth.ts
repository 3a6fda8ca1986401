import 'server-only';
import { betterAuth } from 'better-auth';
import { admin, anonymous } from 'better-auth/plugins';
import { getConfig } from '@/lib/config';
import { type Db, engineOf, getDb, moveUserRows } from '@/lib/db';
import { siteAddressOf } from '@/lib/http/site-origin';
import { resolveAuthSecret } from './auth-secret';

function createAuth(db: Db) {
  const config = getConfig();
  return betterAuth({
    appName: 'Toolgate',
    // The same database, through the same Kysely instance, as everything else; the
    // tables are created by our own migrations.
    database: { db, type: engineOf(db) },
    secret: resolveAuthSecret(config.BETTER_AUTH_SECRET, {
      production: process.env.NODE_ENV === 'production',
    }),
    baseURL: config.BETTER_AUTH_URL,
    // This site's own pages, as the proxy's cross-site check knows them (which already refused
    // every other site). Without a trusted proxy only the host is known, so both schemes count.
    trustedOrigins: (request) => {
      const site =
        request === undefined ? null : siteAddressOf(request, { trustProxy: config.TOOLGATE_TRUST_PROXY });
      if (site === null) return [];
      return config.TOOLGATE_TRUST_PROXY ? [site.origin] : [`http://${site.host}`, `https://${site.host}`];
    },
    emailAndPassword: { enabled: true, autoSignIn: true, minPasswordLength: 8 },
    // A signed copy of the session in a short-lived cookie: most requests need no session query.
    session: { cookieCache: { enabled: true, maxAge: 60 } },
    plugins: [
      anonymous({
        // A guest who signs up or signs in keeps what they made as a guest.
        onLinkAccount: async ({ anonymousUser, newUser }) => {
          await moveUserRows(db, anonymousUser.user.id, newUser.user.id);
        },
      }),
      admin(),
    ],
    databaseHooks: {
      user: {
        create: {
          // The admin plugin's role, for its own endpoints; the app itself asks `isAdmin`.
          before: async (user) => ({
            data: {
              ...user,
              role: config.TOOLGATE_ADMIN_EMAILS.has(user.email.toLowerCase()) ? 'admin' : 'user',
            },
          }),
        },
      },
    },
  });
}

/** The better-auth instance. */
export type Auth = ReturnType<typeof createAuth>;

const globalForAuth = globalThis as typeof globalThis & { __toolgateAuth?: { db: Db; auth: Auth } };

/**
 * The server's better-auth instance, on the server's database. Kept on `globalThis` (route
 * handlers and server actions are separate module instances) and rebuilt when the
 * database changes (tests point the server at a new one).
 */
export async function getAuth(): Promise<Auth> {
  const db = await getDb();
  const cached = globalForAuth.__toolgateAuth;
  if (cached !== undefined && cached.db === db) return cached.auth;
  const auth = createAuth(db);
  globalForAuth.__toolgateAuth = { db, auth };
  return auth;
}
