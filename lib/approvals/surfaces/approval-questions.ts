import 'server-only';
import { createHash, randomUUID } from 'node:crypto';
import { withoutHiddenCharacters } from '@toolgate/engine/client';
import type { Selectable } from 'kysely';
import { getDb } from '@/lib/db';
import { getChatMessages, upsertMessage } from '@/lib/db/chats';
import type { Db } from '@/lib/db/engine';
import type { ApprovalQuestionTable } from '@/lib/db/schema';
import type { Language } from '@/lib/shared/language';
import { publishApprovalChange } from '../life-cycle/approval-events';
import { mayView, stepOpenTo } from '../life-cycle/approval-life-cycle';
import {
  type ApprovalRecord,
  type ApprovalStepRecord,
  getApproval,
  getApprovalSteps,
  userNamesById,
} from '../life-cycle/approval-rows';
import { auditWhileWaiting } from '../life-cycle/audit-fields-of-approval';
import { expireApproval } from '../life-cycle/settle-approvals';
import { approverMailText, approverSummary, approverText } from '../notices/approver-text';
import { chatLanguage, mailRequester, roleName } from '../notices/requester-outcome';
import type { ApprovalQuestionView } from './approval-wire-types';

/*
 * Ask the requester: an approver who may decide a waiting role step asks its requester a
 * question in free text. The call keeps waiting (its deadline does not move); the question
 * appears in the requester's chat (a note, stored, and on the card) and, for a verified
 * requester, in a mail. The requester's next message in that chat is the answer: it is stored
 * against every question still open there and shown to the approvers.
 */

/** The longest question an approver may ask. */
export const maxQuestionLength = 500;
/** The longest answer kept: the start of the requester's message. */
export const maxAnswerLength = 2000;
/** How many questions one call may collect: enough for a conversation, not for a flood of mail. */
export const maxQuestionsPerApproval = 10;

/** One question as stored. */
export type ApprovalQuestionRecord = {
  id: string;
  approvalId: string;
  chatId: string;
  askedBy: string;
  askedRole: string;
  question: string;
  askedAt: string;
  answer?: string;
  answeredAt?: string;
};

function toQuestion(row: Selectable<ApprovalQuestionTable>): ApprovalQuestionRecord {
  return {
    id: row.id,
    approvalId: row.approval_id,
    chatId: row.chat_id,
    askedBy: row.asked_by,
    askedRole: row.asked_role,
    question: row.question,
    askedAt: row.asked_at,
    ...(row.answer !== null && { answer: row.answer }),
    ...(row.answered_at !== null && { answeredAt: row.answered_at }),
  };
}

/** The questions of several approvals, by approval id, oldest first (one query for a page of a list). */
export async function questionsOfApprovals(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, ApprovalQuestionRecord[]>> {
  const byApproval = new Map<string, ApprovalQuestionRecord[]>();
  if (ids.length === 0) return byApproval;
  const rows = await db
    .selectFrom('approval_questions')
    .selectAll()
    .where('approval_id', 'in', [...new Set(ids)])
    .orderBy('asked_at')
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const list = byApproval.get(row.approval_id) ?? [];
    list.push(toQuestion(row));
    byApproval.set(row.approval_id, list);
  }
  return byApproval;
}

/** The user ids a list of questions names (who asked). */
export const askersOf = (questions: readonly ApprovalQuestionRecord[]) =>
  questions.map((question) => question.askedBy);

/** The questions as the approval views carry them: the texts with hidden characters shown. */
export function questionViews(
  questions: readonly ApprovalQuestionRecord[],
  names: ReadonlyMap<string, string>,
): ApprovalQuestionView[] {
  return questions.map((question) => ({
    id: question.id,
    question: approverText(question.question),
    askedBy: { name: names.get(question.askedBy) ?? '', role: question.askedRole },
    askedAt: question.askedAt,
    ...(question.answer !== undefined && { answer: approverText(question.answer) }),
    ...(question.answeredAt !== undefined && { answeredAt: question.answeredAt }),
  }));
}

/** The role of a role step open to this person now, if any: what lets them ask (the same right as deciding it). */
export function askingRoleOf(
  row: Pick<ApprovalRecord, 'status' | 'expiresAt' | 'ownerId'>,
  steps: readonly ApprovalStepRecord[],
  asker: { userId: string; roles: readonly string[] },
  now = Date.now(),
): string | undefined {
  if (row.status !== 'pending' || row.expiresAt <= now) return undefined;
  const step = steps.find((candidate) => candidate.kind === 'role' && stepOpenTo(candidate, row, asker));
  return step?.kind === 'role' ? step.role : undefined;
}

const digestOf = (text: string) => ({
  length: Array.from(text).length,
  sha256: createHash('sha256').update(text, 'utf8').digest('hex'),
});

/** How asking was answered: the route sends `body` with `status`. */
export type AskRequesterResult =
  | { status: 201; body: { questionId: string; askedAt: string } }
  | { status: 400 | 403 | 404 | 409 | 429; body: { error: string; status?: string } };

/**
 * An approver asks the requester of a waiting call a question. 404 when the asker may not see
 * the call, 409 once it no longer waits, 403 for someone who sees it but may not decide a role
 * step of it (its requester, an approver who already decided), 400 for an empty question once
 * hidden characters are removed. The deadline does not move.
 */
export async function askRequester(
  { approvalId, question }: { approvalId: string; question: string },
  asker: { id: string; roles: readonly string[] },
): Promise<AskRequesterResult> {
  const db = await getDb();
  const row = await getApproval(db, approvalId);
  const steps = row === undefined ? [] : await getApprovalSteps(db, approvalId);
  const decider = { userId: asker.id, roles: asker.roles };
  if (row === undefined || !mayView(row, steps, decider))
    return { status: 404, body: { error: 'No approval with that id that you may see' } };
  const now = Date.now();
  if (row.status === 'pending' && row.expiresAt <= now) await expireApproval(db, approvalId, now);
  if (row.status !== 'pending' || row.expiresAt <= now) {
    const status = (await getApproval(db, approvalId))?.status ?? row.status;
    return { status: 409, body: { error: 'The request no longer waits: there is nobody to ask', status } };
  }
  const role = askingRoleOf(row, steps, decider, now);
  if (role === undefined || row.ownerId === null)
    return {
      status: 403,
      body: { error: 'Only an approver who may decide this request now can ask its requester' },
    };
  const text = withoutHiddenCharacters(question).trim();
  if (text === '') return { status: 400, body: { error: 'question: write the question' } };
  if (Array.from(text).length > maxQuestionLength)
    return { status: 400, body: { error: `question: at most ${maxQuestionLength} characters` } };
  const asked = await db
    .selectFrom('approval_questions')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('approval_id', '=', approvalId)
    .executeTakeFirst();
  if (Number(asked?.count ?? 0) >= maxQuestionsPerApproval)
    return {
      status: 429,
      body: {
        error: `At most ${maxQuestionsPerApproval} questions per request: decide it, or deny with a note`,
      },
    };

  const id = randomUUID();
  const askedAt = new Date(now).toISOString();
  await db
    .insertInto('approval_questions')
    .values({
      id,
      approval_id: approvalId,
      chat_id: row.chatId,
      asked_by: asker.id,
      asked_role: role,
      question: text,
      asked_at: askedAt,
      answer: null,
      answered_at: null,
    })
    .execute();
  const name = (await userNamesById(db, [asker.id])).get(asker.id) ?? '';
  await auditQuestion(db, row, 'asked', {
    userId: asker.id,
    askedBy: { name, role },
    question: { id, ...digestOf(text) },
    now,
  });
  await tellRequesterOfQuestion(db, row, { id, text, by: { name, role } });
  publishApprovalChange(db, row, steps);
  return { status: 201, body: { questionId: id, askedAt } };
}

async function auditQuestion(
  db: Db,
  row: ApprovalRecord,
  outcome: 'asked' | 'answered',
  {
    userId,
    askedBy,
    question,
    now,
  }: {
    userId: string | null;
    askedBy?: { name: string; role: string };
    question: { id: string; length: number; sha256: string };
    now: number;
  },
): Promise<void> {
  await auditWhileWaiting(db, row, {
    outcome,
    userId,
    detail: { ...(askedBy !== undefined && { askedBy }), question },
    now,
  });
}

/** "Wang (supervisor)" / "主管 Wang": who asked, as the requester reads it. */
function askerPhrase(by: { name: string; role: string }, language: Language): string {
  const name = approverMailText(by.name);
  return language === 'zh' ? `${roleName(by.role, 'zh')} ${name}`.trim() : `${name} (${by.role})`;
}

/** The note in the requester's chat (and the start of their mail): who asks what about which request. */
function questionNotice(
  row: ApprovalRecord,
  { text, by }: { text: string; by: { name: string; role: string } },
  language: Language,
  { forMail }: { forMail: boolean },
): string {
  const summaries = approverSummary(row.toolName, row.editedInput ?? row.input);
  const summary = (summaries?.[language] ?? row.toolName).replace(/[\r\n\u2028\u2029]+/g, ' ');
  // In a mail the question is one line with its links defanged; on the page it is drawn as text.
  const question = forMail ? approverMailText(text) : approverText(text);
  const who = askerPhrase(by, language);
  return language === 'zh'
    ? `${who} 就你的申请「${summary}」提问：\n${question}\n\n${forMail ? '请打开会话回复' : '请直接在下方回复'}：你在这个会话里发的下一条消息会作为回答转给对方。申请仍在等待审批，期限不变。`
    : `${who} asks about your request “${summary}”:\n${question}\n\n${forMail ? 'Open the chat to reply' : 'Reply below'}: your next message in this chat is passed to them as your answer. The request keeps waiting; its deadline does not change.`;
}

/** The note in the chat (stored, so it survives a reload) and the mail to a verified requester, once per question. */
async function tellRequesterOfQuestion(
  db: Db,
  row: ApprovalRecord,
  question: { id: string; text: string; by: { name: string; role: string } },
): Promise<void> {
  try {
    const messages = await getChatMessages(db, row.chatId);
    const language = chatLanguage(messages);
    await upsertMessage(db, row.chatId, {
      id: `question-${question.id}`,
      role: 'assistant',
      parts: [{ type: 'text', text: questionNotice(row, question, language, { forMail: false }) }],
      metadata: { notice: true, question: { approvalId: row.id, questionId: question.id } },
    });
    if (row.ownerId === null) return;
    await mailRequester(db, {
      approvalId: row.id,
      chatId: row.chatId,
      ownerId: row.ownerId,
      kind: 'question',
      subject: 'question',
      dedupeId: question.id,
      textIn: (lang) => questionNotice(row, question, lang, { forMail: true }),
    });
  } catch (error) {
    console.error(`[toolgate] could not tell the requester of a question on approval ${row.id}:`, error);
  }
}

/** A question the requester's new message answered: what the turn tells the model. */
export type AnsweredQuestion = {
  approvalId: string;
  tool: string;
  summary?: Record<Language, string>;
  askedBy: { name: string; role: string };
  question: string;
};

/**
 * The requester's new message answers every question still open on their waiting calls in
 * this chat: stored against each (compare-and-set: answered once), audited, and the approvers'
 * pages hear of it. Returns the questions it answered (none for an empty message).
 */
export async function answerOpenQuestions(
  db: Db,
  { chatId, ownerId, text }: { chatId: string; ownerId: string; text: string },
): Promise<AnsweredQuestion[]> {
  const answer = Array.from(withoutHiddenCharacters(text).trim()).slice(0, maxAnswerLength).join('');
  if (answer === '') return [];
  const open = await db
    .selectFrom('approval_questions')
    .selectAll()
    .where('chat_id', '=', chatId)
    .where('answered_at', 'is', null)
    .orderBy('asked_at')
    .execute();
  if (open.length === 0) return [];
  const now = Date.now();
  const answeredAt = new Date(now).toISOString();
  const names = await userNamesById(
    db,
    open.map((row) => row.asked_by),
  );
  const answered: AnsweredQuestion[] = [];
  const rowsById = new Map<string, ApprovalRecord | undefined>();
  for (const question of open.map(toQuestion)) {
    if (!rowsById.has(question.approvalId))
      rowsById.set(question.approvalId, await getApproval(db, question.approvalId));
    const row = rowsById.get(question.approvalId);
    if (row === undefined || row.ownerId !== ownerId || row.status !== 'pending' || row.expiresAt <= now)
      continue;
    const moved = await db
      .updateTable('approval_questions')
      .set({ answer, answered_at: answeredAt })
      .where('id', '=', question.id)
      .where('answered_at', 'is', null)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) continue;
    await auditQuestion(db, row, 'answered', {
      userId: ownerId,
      question: { id: question.id, ...digestOf(answer) },
      now,
    });
    const summary = approverSummary(row.toolName, row.editedInput ?? row.input);
    answered.push({
      approvalId: row.id,
      tool: row.toolName,
      ...(summary !== undefined && { summary }),
      askedBy: { name: names.get(question.askedBy) ?? '', role: question.askedRole },
      question: question.question,
    });
  }
  for (const approvalId of new Set(answered.map((question) => question.approvalId))) {
    const row = rowsById.get(approvalId);
    if (row !== undefined) publishApprovalChange(db, row);
  }
  return answered;
}
