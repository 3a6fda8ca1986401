import type { CallProvenance } from '@toolgate/engine';
import { isTainted } from '@toolgate/engine/provenance';
import type { UIMessage } from 'ai';
import type { Db } from '@/lib/db/engine';
import { writeToolNames } from '@/lib/tools/tool-catalog';
import type { CallRoute, SavedWriteCall } from './replay-policy';

/** Saved messages read per query: bounded memory per page, few round trips. */
const pageSize = 2000;

type SavedPart = {
  type: string;
  toolName?: string;
  toolCallId?: string;
  state?: string;
  input?: unknown;
  output?: unknown;
  approval?: { approved?: boolean; reason?: string; descriptor?: unknown };
};

/** Where a saved call went: a card (whose steps say to which role), a refusal without one, or a run. */
function happenedOf(part: SavedPart): CallRoute | undefined {
  if (part.approval !== undefined) {
    const steps = (part.approval.descriptor as { steps?: unknown } | undefined)?.steps;
    const roles = Array.isArray(steps)
      ? steps.flatMap((step) =>
          typeof step === 'object' && step !== null && typeof (step as { role?: unknown }).role === 'string'
            ? [(step as { role: string }).role]
            : [],
        )
      : [];
    return roles.length > 0 ? `role:${[...new Set(roles)].sort().join('+')}` : 'requester';
  }
  const output = part.output as { denied?: unknown } | undefined;
  if (typeof output === 'object' && output !== null && output.denied === true) return 'denied';
  if (part.state === 'output-available' || part.state === 'output-error') return 'run';
  // Still streaming or never settled: nothing happened yet to compare with.
  return undefined;
}

function taintedOf(part: SavedPart): boolean {
  const provenance = (part.approval?.descriptor as { provenance?: CallProvenance } | undefined)?.provenance;
  return typeof provenance === 'object' && provenance !== null && Array.isArray(provenance.tainted)
    ? isTainted(provenance)
    : false;
}

/** The write calls of one saved message: built-in write tools, and MCP tools (dynamic parts). */
export function writeCallsOf(
  message: UIMessage,
  chatId: string,
  userId: string | null,
  at: string,
): SavedWriteCall[] {
  const calls: SavedWriteCall[] = [];
  for (const part of message.parts as SavedPart[]) {
    let toolName: string | undefined;
    if (part.type === 'dynamic-tool') toolName = part.toolName;
    else if (part.type.startsWith('tool-')) toolName = part.type.slice('tool-'.length);
    if (toolName === undefined || (part.type !== 'dynamic-tool' && !writeToolNames.has(toolName))) continue;
    const happened = happenedOf(part);
    if (happened === undefined) continue;
    calls.push({ chatId, userId, toolName, input: part.input, tainted: taintedOf(part), at, happened });
  }
  return calls;
}

/**
 * Every write call saved in chats in messages stored at or after `since` (all without it),
 * read page by page in key order. Read-only: a plain SELECT, no lock, no transaction.
 */
export async function readSavedWriteCalls(
  db: Db,
  { since }: { since?: Date } = {},
): Promise<SavedWriteCall[]> {
  const calls: SavedWriteCall[] = [];
  let after: { chatId: string; id: string } | undefined;
  for (;;) {
    let query = db
      .selectFrom('chat_messages')
      .innerJoin('chats', 'chats.id', 'chat_messages.chat_id')
      .select([
        'chat_messages.chat_id as chatId',
        'chat_messages.id as id',
        'chat_messages.message as message',
        'chat_messages.created_at as createdAt',
        'chats.owner_id as ownerId',
      ])
      .where('chat_messages.role', '=', 'assistant');
    if (since !== undefined) query = query.where('chat_messages.created_at', '>=', since.toISOString());
    if (after !== undefined) {
      const { chatId, id } = after;
      query = query.where((eb) =>
        eb.or([
          eb('chat_messages.chat_id', '>', chatId),
          eb.and([eb('chat_messages.chat_id', '=', chatId), eb('chat_messages.id', '>', id)]),
        ]),
      );
    }
    const rows = await query
      .orderBy('chat_messages.chat_id')
      .orderBy('chat_messages.id')
      .limit(pageSize)
      .execute();
    for (const row of rows) {
      // Tool parts only: a message without one is not parsed.
      if (!row.message.includes('"tool-') && !row.message.includes('"dynamic-tool"')) continue;
      let message: UIMessage;
      try {
        message = JSON.parse(row.message) as UIMessage;
      } catch {
        continue;
      }
      if (!Array.isArray(message.parts)) continue;
      calls.push(...writeCallsOf(message, row.chatId, row.ownerId, row.createdAt));
    }
    const last = rows.at(-1);
    if (last === undefined || rows.length < pageSize) return calls;
    after = { chatId: last.chatId, id: last.id };
  }
}
