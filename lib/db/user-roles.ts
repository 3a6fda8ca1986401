import { sql } from 'kysely';
import type { Db } from './engine';
import { engineOf } from './engine';

// What a role name may be is the policy file's rule; the roles table keeps to it.
export { roleNamePattern } from '@toolgate/engine/policy';

/** The account facts privilege is computed from. */
export type AccountRecord = {
  id: string;
  email: string;
  emailVerified: boolean;
  isAnonymous: boolean;
  /** The admin plugin's copy of the admin role (`admin` / `user`). */
  role: string | null;
};

const truthy = (value: boolean | number | null | undefined) => value === true || value === 1;

/** The user whose stored email is `email` (already normalised), or undefined. */
export async function findAccountByEmail(db: Db, email: string): Promise<AccountRecord | undefined> {
  const row = await db
    .selectFrom('user')
    .select(['id', 'email', 'emailVerified', 'isAnonymous', 'role'])
    .where('email', '=', email)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  return {
    id: row.id,
    email: row.email,
    emailVerified: truthy(row.emailVerified),
    isAnonymous: truthy(row.isAnonymous),
    role: row.role,
  };
}

/** The account with id `userId`, or undefined. */
export async function findAccountById(db: Db, userId: string): Promise<AccountRecord | undefined> {
  const row = await db
    .selectFrom('user')
    .select(['id', 'email', 'emailVerified', 'isAnonymous', 'role'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  return {
    id: row.id,
    email: row.email,
    emailVerified: truthy(row.emailVerified),
    isAnonymous: truthy(row.isAnonymous),
    role: row.role,
  };
}

/** An account (never a guest) with the roles stored for it, as the admins' roles page lists it. */
export type AccountWithRoles = {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  /** Stored roles, sorted; they count only while the email is verified. */
  storedRoles: string[];
  /** Those of them the policy file gave (they follow the file). */
  fileRoles: string[];
};

/**
 * One page of the accounts that are not guests, by email, with their stored roles:
 * `emailContains` (already normalised) filters, `limit` + 1 rows are read to tell
 * whether another page follows.
 */
export async function listAccountsWithRoles(
  db: Db,
  { emailContains, limit, offset }: { emailContains?: string; limit: number; offset: number },
): Promise<{ accounts: AccountWithRoles[]; hasMore: boolean }> {
  const notAnonymous = engineOf(db) === 'postgres' ? false : 0;
  let query = db
    .selectFrom('user')
    .select(['id', 'email', 'name', 'emailVerified'])
    .where((eb) => eb.or([eb('isAnonymous', 'is', null), eb('isAnonymous', '=', notAnonymous)]));
  if (emailContains !== undefined && emailContains !== '') {
    // `%` and `_` in the search are letters, not wildcards.
    const pattern = `%${emailContains.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    query = query.where(sql<boolean>`${sql.ref('email')} like ${pattern} escape '\\'`);
  }
  const rows = await query
    .orderBy('email')
    .orderBy('id')
    .limit(limit + 1)
    .offset(offset)
    .execute();
  const page = rows.slice(0, limit);
  const roleRows =
    page.length === 0
      ? []
      : await db
          .selectFrom('user_role')
          .select(['user_id', 'role', 'source'])
          .where(
            'user_id',
            'in',
            page.map((row) => row.id),
          )
          .orderBy('role')
          .execute();
  const rolesByUser = new Map<string, string[]>();
  const fileRolesByUser = new Map<string, string[]>();
  for (const row of roleRows) {
    rolesByUser.set(row.user_id, [...(rolesByUser.get(row.user_id) ?? []), row.role]);
    if (row.source === 'policy')
      fileRolesByUser.set(row.user_id, [...(fileRolesByUser.get(row.user_id) ?? []), row.role]);
  }
  return {
    accounts: page.map((row) => ({
      id: row.id,
      email: row.email,
      name: row.name,
      emailVerified: truthy(row.emailVerified),
      storedRoles: rolesByUser.get(row.id) ?? [],
      fileRoles: fileRolesByUser.get(row.id) ?? [],
    })),
    hasMore: rows.length > limit,
  };
}

/** The roles stored for a user, sorted; whether they count is `rolesOf`'s decision. */
export async function storedRolesOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('user_role')
    .select('role')
    .where('user_id', '=', userId)
    .orderBy('role')
    .execute();
  return rows.map((row) => row.role);
}

/** Stores `role` for the user. Returns false when they already held it. */
export async function grantRole(db: Db, userId: string, role: string): Promise<boolean> {
  const result = await db
    .insertInto('user_role')
    .values({ user_id: userId, role, granted_at: new Date().toISOString() })
    .onConflict((conflict) => conflict.columns(['user_id', 'role']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Removes `role` from the user. Returns false when they did not hold it. */
export async function revokeRole(db: Db, userId: string, role: string): Promise<boolean> {
  const result = await db
    .deleteFrom('user_role')
    .where('user_id', '=', userId)
    .where('role', '=', role)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Marks the user's email verified (as following the emailed link does). */
export async function markEmailVerified(db: Db, userId: string): Promise<void> {
  // better-sqlite3 binds no booleans: SQLite keeps them as 0 / 1.
  const verified = engineOf(db) === 'postgres' ? true : 1;
  await db
    .updateTable('user')
    .set({ emailVerified: verified, updatedAt: new Date().toISOString() })
    .where('id', '=', userId)
    .execute();
}

/**
 * Deletes the user if their email is still unverified (with their sessions, password and
 * stored roles). Returns false when there was no such unverified user.
 */
export async function removeUnverifiedAccount(db: Db, userId: string): Promise<boolean> {
  const unverified = engineOf(db) === 'postgres' ? false : 0;
  const result = await db
    .deleteFrom('user')
    .where('id', '=', userId)
    .where('emailVerified', '=', unverified)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Keeps the admin plugin's `role` column equal to what `rolesOf` decided, so the plugin
 * never holds more privilege than the app computes.
 */
export async function storePluginRole(db: Db, userId: string, isAdmin: boolean): Promise<void> {
  await db
    .updateTable('user')
    .set({ role: isAdmin ? 'admin' : 'user' })
    .where('id', '=', userId)
    .execute();
}

/** One row of the account audit. */
export type AccountEvent = {
  /** Who acted; null for the operators' CLI. */
  actorId: string | null;
  action: string;
  targetUserId: string | null;
  detail?: Record<string, unknown>;
};

/** Appends one account action to the audit. */
export async function recordAccountEvent(db: Db, event: AccountEvent): Promise<void> {
  await db
    .insertInto('account_audit')
    .values({
      actor_id: event.actorId,
      action: event.action,
      target_user_id: event.targetUserId,
      detail: event.detail === undefined ? null : JSON.stringify(event.detail),
      created_at: new Date().toISOString(),
    })
    .execute();
}
