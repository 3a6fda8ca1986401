import 'server-only';
import { randomUUID } from 'node:crypto';
import type { CallProvenance } from '@toolgate/engine';
import { revealHiddenInSummary } from '@toolgate/engine/client';
import { isTainted } from '@toolgate/engine/provenance';
import { hashToolArguments } from '@toolgate/engine/shells';
import type { z } from 'zod';
import {
  type AuditOutcome,
  activeStandingGrants,
  type Db,
  hasApprovalRule,
  insertAuditRow,
  insertStandingGrant,
  revokeStandingGrant,
  type StandingGrantRecord,
} from '@/lib/db';
import { conditionsHold, type PolicyRule, type whenSchema } from '@/lib/policy';
import { toolFactsOf } from '@/lib/tools/tool-catalog';
import { summarizeToolCall } from '@/lib/tools/tool-summaries';
import { getApproval } from './approval-rows';

/** The grants in force one user may hold; a call looks at no more than these. */
export const maxGrantsPerUser = 50;

/**
 * A standing grant as a person asks for it with an allow (`remember: { scope, ttlMs, when? }`,
 * parsed beside `POST /api/chat/approve`). `scope` `chat` covers later calls in the approval's
 * chat, `me` in any chat of the requester.
 */
export type GrantRequest = {
  scope: 'chat' | 'me';
  ttlMs: number;
  when?: z.infer<typeof whenSchema>;
};

/** The call a grant would be made from: its approval row, as much as matters here. */
export type GrantSource = {
  approvalId: string;
  chatId: string;
  ownerId: string | null;
  toolName: string;
  provenance?: CallProvenance;
  /** Whether every step of the call is its requester's (no role step). */
  requesterOnly: boolean;
};

/**
 * Why `request` may not become a grant for this call, or undefined when it may. A grant
 * stands in only for its requester (never a role step), never for a call an outsider's data
 * drove, and is never wider than the call in front of the person: its `when` compares the
 * tool's own input fields, holds for the input this call runs with, and bounds each number
 * of it from above by the call's own value.
 */
export function grantRefusalOf(
  request: GrantRequest,
  source: GrantSource,
  { deciderId, input }: { deciderId: string | undefined; input: unknown },
): string | undefined {
  if (source.ownerId === null || deciderId !== source.ownerId)
    return 'remember: only the person who asked for the call can make a standing grant';
  if (!source.requesterOnly) return 'remember: a standing grant never stands in for a role step';
  if (isTainted(source.provenance))
    return 'remember: this call carries values from an untrusted source; a standing grant never covers such a call';
  const fields = toolFactsOf(source.toolName)?.fieldLabels;
  for (const field of Object.keys(request.when ?? {})) {
    if (fields !== undefined && !Object.hasOwn(fields, field))
      return `remember.when.${field}: ${source.toolName} has no input field "${field}"`;
  }
  const unbounded = unboundedNumberOf(request.when ?? {}, input);
  if (unbounded !== undefined) return unbounded;
  if (request.when !== undefined && !conditionsHold(request.when as PolicyRule['when'], input))
    return 'remember.when: the grant must cover the call it is made from (its conditions do not hold for this input)';
  return undefined;
}

/**
 * Why `when` would let a grant reach numbers larger than the call's own, or undefined when it
 * does not: each number of the input (a top-level field; a nested one cannot be bounded, so
 * none may be there) needs a condition whose upper bound (`lte`, `lt`, `eq` or the largest of
 * `in`) is at most the call's value.
 */
function unboundedNumberOf(when: NonNullable<GrantRequest['when']>, input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  for (const [field, value] of Object.entries(input)) {
    if (typeof value !== 'number') {
      if (hasNumber(value))
        return `remember: ${field} holds a number a grant cannot bound; allow this call alone`;
      continue;
    }
    const condition = Object.hasOwn(when, field) ? when[field] : undefined;
    const bounds = [
      condition?.lte,
      condition?.lt,
      typeof condition?.eq === 'number' ? condition.eq : undefined,
      condition?.in?.every((candidate) => typeof candidate === 'number')
        ? Math.max(...condition.in)
        : undefined,
    ].filter((bound): bound is number => bound !== undefined);
    if (bounds.length === 0 || Math.min(...bounds) > value)
      return `remember.when.${field}: name an upper bound of at most this call's ${value} (e.g. { "lte": ${value} }): a grant is never wider than the call it is made from`;
  }
  return undefined;
}

/** Whether a number is somewhere inside `value` (an object or a list). */
function hasNumber(value: unknown, depth = 0): boolean {
  if (typeof value === 'number') return true;
  if (typeof value !== 'object' || value === null || depth > 32) return false;
  return Object.values(value).some((inner) => hasNumber(inner, depth + 1));
}

/** Stores the grant a person made with their allow, and audits it (`grant_created`); returns its id. */
export async function createStandingGrant(
  db: Db,
  request: GrantRequest,
  source: GrantSource & { ownerId: string },
  now = Date.now(),
): Promise<string> {
  const grant: StandingGrantRecord = {
    id: `grant_${randomUUID()}`,
    ownerId: source.ownerId,
    toolName: source.toolName,
    chatId: request.scope === 'chat' ? source.chatId : null,
    ...(request.when !== undefined && { when: request.when }),
    approvalId: source.approvalId,
    createdAt: new Date(now).toISOString(),
    expiresAt: now + request.ttlMs,
  };
  await insertStandingGrant(db, grant);
  await auditGrant(db, grant, 'grant_created', now);
  return grant.id;
}

/**
 * The audit row of a grant made or revoked, lined up with the call it was made from (its
 * chat, tool call id and arguments' hash). The detail names the grant, its scope, its life
 * and the input paths its `when` tests — never a value. A failure to write is logged, as
 * the audit shell does: it never undoes the grant or its revocation.
 */
async function auditGrant(
  db: Db,
  grant: StandingGrantRecord,
  outcome: Extract<AuditOutcome, 'grant_created' | 'grant_revoked'>,
  now: number,
): Promise<void> {
  try {
    const call = await getApproval(db, grant.approvalId);
    const input = call?.editedInput ?? call?.input;
    const summary = call === undefined ? undefined : summarizeToolCall(grant.toolName, input);
    const createdAt = Date.parse(grant.createdAt);
    await insertAuditRow(db, {
      userId: grant.ownerId,
      chatId: call?.chatId ?? grant.chatId ?? '',
      worker: call?.worker ?? '',
      toolName: grant.toolName,
      toolCallId: call?.toolCallId ?? grant.id,
      argsHash: hashToolArguments(input ?? null),
      outcome,
      detail: {
        grant: grant.id,
        standingGrant: {
          scope: grant.chatId === null ? 'me' : 'chat',
          ttlMs: grant.expiresAt - createdAt,
          ...(grant.when !== undefined && { when: Object.keys(grant.when) }),
        },
      },
      ...(summary !== undefined && { summary: revealHiddenInSummary(summary) }),
      durationMs: outcome === 'grant_revoked' ? Math.max(0, now - createdAt) : 0,
      createdAt: new Date(now).toISOString(),
    });
  } catch (error) {
    console.error('[toolgate] could not write an audit row:', error);
  }
}

/**
 * What lets a call run without its requester's card: "allow for this chat" (`true`), or the
 * newest grant in force whose conditions the input satisfies (`{ grant: id }`). The approval
 * shell asks only for calls whose every step is the requester's and that are not tainted.
 */
export function approvedByRuleOrGrant(db: Db, { chatId, ownerId }: { chatId: string; ownerId: string }) {
  return async (toolName: string, input: unknown): Promise<boolean | { grant: string }> => {
    if (await hasApprovalRule(db, { chatId, ownerId, toolName })) return true;
    const grants = await activeStandingGrants(db, {
      ownerId,
      toolName,
      chatId,
      now: Date.now(),
      limit: maxGrantsPerUser,
    });
    const grant = grants.find((candidate) => conditionsHold(candidate.when as PolicyRule['when'], input));
    return grant === undefined ? false : { grant: grant.id };
  };
}

/** A grant as its owner reads it in the list. */
export type StandingGrantView = Omit<StandingGrantRecord, 'ownerId' | 'chatId'> & {
  scope: 'chat' | 'me';
  chatId?: string;
  remainingMs: number;
};

/** The caller's grants in force, newest first. */
export async function listStandingGrants(
  db: Db,
  ownerId: string,
  now = Date.now(),
): Promise<StandingGrantView[]> {
  const grants = await activeStandingGrants(db, { ownerId, now, limit: maxGrantsPerUser });
  return grants.map(({ ownerId: _ownerId, chatId, ...grant }) => ({
    ...grant,
    scope: chatId === null ? 'me' : 'chat',
    ...(chatId !== null && { chatId }),
    remainingMs: Math.max(0, grant.expiresAt - now),
  }));
}

/**
 * Revokes one of the caller's grants, audited (`grant_revoked`): later calls ask again. False
 * when there is none in force.
 */
export async function revokeGrant(db: Db, ownerId: string, id: string, now = Date.now()): Promise<boolean> {
  // Read before it is revoked: what the audit row says it covered.
  const grant = (await activeStandingGrants(db, { ownerId, now, limit: maxGrantsPerUser })).find(
    (candidate) => candidate.id === id,
  );
  if (grant === undefined) return false;
  // Of two revocations at once only one changes the row, and only that one audits it.
  if (!(await revokeStandingGrant(db, { id, ownerId, now }))) return false;
  await auditGrant(db, grant, 'grant_revoked', now);
  return true;
}
