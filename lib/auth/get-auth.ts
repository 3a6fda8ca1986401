import 'server-only';
import { betterAuth } from 'better-auth';
import { admin, anonymous } from 'better-auth/plugins';
import { endGuestRoleApprovals } from '@/lib/approvals';
import { getConfig } from '@/lib/config';
import { type Db, engineOf, getDb, linkGuestToAccount, recordAccountEvent } from '@/lib/db';
import { clientAddressHeader } from '@/lib/http/client-address';
import { siteAddressOf } from '@/lib/http/site-origin';
import { publishAccessRevoked } from '@/lib/server/event-bus';
import { getApprovalRegistry } from '@/lib/server/stores';
import { resolveAuthSecret } from './auth-secret';
import { minPasswordLength } from './password-policy';
import { verificationLinkLifeSeconds } from './verification-binding';
import { createVerificationSender, verificationDeliveryOf } from './verification-mail';

function createAuth(db: Db) {
  const config = getConfig();
  const delivery = verificationDeliveryOf(config);
  // Where a link can reach the person, sign-in waits for it: sign-up then answers the same
  // whether or not the email already has an account. Without mail (production with
  // TOOLGATE_ALLOW_UNVERIFIED_SIGNUP=1) accounts sign in at once but hold no privilege.
  const requireVerification = delivery !== 'none';
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
    // The auth route applies Toolgate's own limits (lib/server/auth-limits.ts), keyed on the
    // real client address and shared through Redis; better-auth's per-process ones are off.
    rateLimit: { enabled: false },
    advanced: {
      ipAddress: {
        ipAddressHeaders: config.TOOLGATE_TRUST_PROXY ? ['x-forwarded-for'] : [clientAddressHeader],
      },
    },
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      requireEmailVerification: requireVerification,
      minPasswordLength,
      maxPasswordLength: 128,
      // The answer to a sign-up for an existing email looks like any other sign-up's.
      customSyntheticUser: ({ coreFields, additionalFields, id }) => ({
        ...coreFields,
        isAnonymous: false,
        role: 'user',
        banned: false,
        banReason: null,
        banExpires: null,
        ...additionalFields,
        id,
      }),
    },
    ...(delivery === 'none'
      ? {}
      : {
          emailVerification: {
            sendVerificationEmail: createVerificationSender(config, delivery),
            sendOnSignUp: true,
            sendOnSignIn: true,
            expiresIn: verificationLinkLifeSeconds,
            // Safe only because the auth route lets a link work in the browser it was mailed for.
            autoSignInAfterVerification: true,
            afterEmailVerification: async (user) => {
              await recordAccountEvent(db, {
                actorId: user.id,
                action: 'email-verified',
                targetUserId: user.id,
              });
            },
          },
        }),
    // No cookie cache: every request reads the session, so sign-out and a ban apply to the next one.
    plugins: [
      anonymous({
        // A guest who signs up or signs in keeps what they made as a guest; their audit rows
        // keep the guest's id and count as the account's (lib/db/guest-links.ts). Requests
        // the guest made to a role end first: the account may hold that role.
        onLinkAccount: async ({ anonymousUser, newUser }) => {
          await endGuestRoleApprovals(db, getApprovalRegistry(), anonymousUser.user.id);
          await linkGuestToAccount(db, anonymousUser.user.id, newUser.user.id);
        },
      }),
      // Only ban, unban and list users are reachable (app/api/auth/[...all]/admin-endpoints.ts).
      admin(),
    ],
    databaseHooks: {
      user: {
        create: {
          // Never privilege at creation: the admin plugin's role is kept equal to the
          // verified roles on each request (lib/auth/session-user.ts).
          before: async (user) => ({ data: { ...user, role: 'user' } }),
        },
        // A ban (or a deleted account) ends what the user holds open, on every instance.
        update: {
          after: async (user) => {
            if ((user as { banned?: boolean | null }).banned) publishAccessRevoked({ userId: user.id });
          },
        },
        delete: { after: async (user) => publishAccessRevoked({ userId: user.id }) },
      },
      // However a sign-in ends (sign-out, a revoked session, a ban), its open streams end with it.
      session: {
        delete: {
          after: async (session) =>
            publishAccessRevoked({ userId: session.userId, authSessionId: session.id }),
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
