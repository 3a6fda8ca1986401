import type { Selectable } from 'kysely';
import type { Db } from './engine';
import type { StandingGrantTable } from './schema';

/** A stored standing grant (see `lib/approvals/life-cycle/standing-grants.ts`). */
export type StandingGrantRecord = {
  id: string;
  ownerId: string;
  toolName: string;
  /** The chat it covers; null for every chat of the owner. */
  chatId: string | null;
  /** Input field → condition, as a policy rule's `when`; undefined matches every call. */
  when?: Record<string, Record<string, unknown>>;
  approvalId: string;
  createdAt: string;
  expiresAt: number;
};

/** The columns read back: every column but `revoked_at` (reads take only grants in force). */
type Row = Omit<Selectable<StandingGrantTable>, 'revoked_at'>;

function toRecord(row: Row): StandingGrantRecord {
  return {
    id: row.id,
    ownerId: row.owner_id,
    toolName: row.tool_name,
    chatId: row.chat_id,
    ...(row.conditions !== null && { when: JSON.parse(row.conditions) as StandingGrantRecord['when'] }),
    approvalId: row.approval_id,
    createdAt: row.created_at,
    expiresAt: Number(row.expires_at),
  };
}

/** Stores a grant. */
export async function insertStandingGrant(db: Db, grant: StandingGrantRecord): Promise<void> {
  await db
    .insertInto('standing_grants')
    .values({
      id: grant.id,
      owner_id: grant.ownerId,
      tool_name: grant.toolName,
      chat_id: grant.chatId,
      conditions: grant.when === undefined ? null : JSON.stringify(grant.when),
      approval_id: grant.approvalId,
      created_at: grant.createdAt,
      expires_at: grant.expiresAt,
      revoked_at: null,
    })
    .execute();
}

/**
 * The owner's grants in force at `now`, newest first, at most `limit`: of one tool (covering
 * `chatId` or every chat) when `toolName` is given, else all of them.
 */
export async function activeStandingGrants(
  db: Db,
  {
    ownerId,
    toolName,
    chatId,
    now,
    limit,
  }: { ownerId: string; toolName?: string; chatId?: string; now: number; limit: number },
): Promise<StandingGrantRecord[]> {
  let query = db
    .selectFrom('standing_grants')
    .select([
      'id',
      'owner_id',
      'tool_name',
      'chat_id',
      'conditions',
      'approval_id',
      'created_at',
      'expires_at',
    ])
    .where('owner_id', '=', ownerId)
    .where('expires_at', '>', now)
    .where('revoked_at', 'is', null);
  if (toolName !== undefined) query = query.where('tool_name', '=', toolName);
  if (chatId !== undefined)
    query = query.where((eb) => eb.or([eb('chat_id', 'is', null), eb('chat_id', '=', chatId)]));
  const rows = await query.orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
  return rows.map(toRecord);
}

/** Revokes one of the owner's grants in force; returns whether there was one. */
export async function revokeStandingGrant(
  db: Db,
  { id, ownerId, now }: { id: string; ownerId: string; now: number },
): Promise<boolean> {
  const result = await db
    .updateTable('standing_grants')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
