import type { Db } from './engine';
import { engineOf } from './engine';

/** A role name: lower-case letters, digits, `-` and `_`, starting with a letter (`supervisor`, `admin`). */
export const roleNamePattern = /^[a-z][a-z0-9_-]{0,39}$/;

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

/** The account audit, oldest first (for operators and tests). */
export async function listAccountEvents(db: Db): Promise<(AccountEvent & { createdAt: string })[]> {
  const rows = await db.selectFrom('account_audit').selectAll().orderBy('id').execute();
  return rows.map((row) => ({
    actorId: row.actor_id,
    action: row.action,
    targetUserId: row.target_user_id,
    ...(row.detail === null ? {} : { detail: JSON.parse(row.detail) as Record<string, unknown> }),
    createdAt: row.created_at,
  }));
}
