import 'server-only';
import { randomUUID } from 'node:crypto';
import type { UIMessage } from 'ai';
import { getConfig } from '@/lib/config';
import { getChatMessages, upsertMessage } from '@/lib/db/chats';
import { type Db, engineOf } from '@/lib/db/engine';
import type { Language } from '@/lib/shared/language';
import { readableDeadline } from '@/lib/shared/readable-wait';
import { summarizeToolResult } from '@/lib/tools/tool-summaries';
import { insertWebhookDelivery } from '@/lib/webhooks/webhook-deliveries';
import { wakeWebhookDeliveries } from '@/lib/webhooks/webhook-delivery-loop';
import { publishApprovalChange } from '../life-cycle/approval-events';
import type { RequesterOutcome } from '../life-cycle/approval-notices';
import { decisionRecordOf, getApproval, getApprovalSteps } from '../life-cycle/approval-rows';
import type { ApprovalMail } from './approval-mail';
import { approverSummary, approverText } from './approver-text';

const roleNames: Record<Language, Record<string, string>> = {
  en: { supervisor: 'a supervisor', admin: 'an admin', manager: 'a manager' },
  zh: { supervisor: '主管', admin: '管理员', manager: '经理' },
};

/** A role as the requester reads it: "a supervisor" / "主管". */
export const roleName = (role: string, language: Language) => roleNames[language][role] ?? role;

/** The chat's language: Chinese when its last user message holds a Han character. */
export function chatLanguage(messages: readonly UIMessage[]): Language {
  const last = messages.findLast((message) => message.role === 'user');
  const text = last?.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ') ?? '';
  return /[\u3400-\u9fff]/u.test(text) ? 'zh' : 'en';
}

/** One line, no breaks: a summary or a name cannot forge lines of a mail or a notice. */
const line = (text: string) => text.replace(/[\r\n\u2028\u2029]+/g, ' ').slice(0, 500);
/** `text` as one sentence ending in `stop`, whether or not it already ended in one. */
const sentence = (text: string, stop: string) => `${line(text).replace(/[.。]+$/u, '')}${stop}`;

/** The sentence that tells the requester how their request came out. */
function outcomeText(
  outcome: RequesterOutcome,
  language: Language,
  facts: {
    summary: string;
    by?: { name: string; role: string };
    /** What the requester asked for, when the approver changed it before allowing. */
    askedFor?: string;
    note?: string;
    result?: string;
    expiresAt: number;
  },
): string {
  const zh = language === 'zh';
  const subject = zh ? `「${line(facts.summary)}」` : `“${line(facts.summary)}”`;
  const by =
    facts.by === undefined
      ? undefined
      : facts.by.role === 'requester'
        ? zh
          ? '你'
          : 'you'
        : zh
          ? `${roleName(facts.by.role, 'zh')} ${line(approverText(facts.by.name))}`.trim()
          : `${line(approverText(facts.by.name))} (${facts.by.role})`;
  // An approver's change is theirs, and the requester is told what they had asked for.
  const changed =
    facts.askedFor === undefined
      ? ''
      : zh
        ? `修改后`
        : ` with a change (you asked for “${line(facts.askedFor)}”)`;
  const askedForZh =
    zh && facts.askedFor !== undefined ? `（你原先申请的是「${line(facts.askedFor)}」）` : '';
  switch (outcome.kind) {
    case 'executed':
      return zh
        ? `你的申请${subject}已${by === undefined ? '' : `由${by}`}${changed}批准并完成${askedForZh}。${facts.result === undefined ? '' : sentence(facts.result, '。')}`
        : `Update on your request ${subject}: approved${by === undefined ? '' : ` by ${by}`}${changed} and done.${facts.result === undefined ? '' : ` ${sentence(facts.result, '.')}`}`;
    case 'failed':
      return zh
        ? `你的申请${subject}已${by === undefined ? '' : `由${by}`}${changed}批准${askedForZh}，但执行失败，什么都没有改变。`
        : `Update on your request ${subject}: approved${by === undefined ? '' : ` by ${by}`}${changed}, but it failed to run, so nothing changed.`;
    case 'denied':
      return zh
        ? `你的申请${subject}被${by ?? '审批人'}拒绝，什么都没有执行。${facts.note ? `说明：“${line(approverText(facts.note))}”。` : ''}`
        : `Update on your request ${subject}: denied by ${by ?? 'its approver'}, so nothing was done.${facts.note ? ` Their note: “${line(approverText(facts.note))}”.` : ''}`;
    case 'expired':
      return zh
        ? `你的申请${subject}在期限内无人审批，已过期，什么都没有执行。如仍需要，请重新提出。`
        : `Update on your request ${subject}: nobody decided it in time, so it expired and nothing was done. Ask again if you still need it.`;
    case 'escalated':
      return zh
        ? `你的申请${subject}已升级给${roleName(outcome.role, 'zh')}，须在 ${readableDeadline(facts.expiresAt, Date.now(), 'zh', 'UTC')}内决定。你可以关闭页面，有结果会通知你。`
        : `Update on your request ${subject}: it was escalated to ${roleName(outcome.role, 'en')}, who must decide within ${readableDeadline(facts.expiresAt, Date.now(), 'en', 'UTC')}. You may close this page; you will be told the outcome.`;
  }
}

/**
 * Tells the requester how a request that waited for someone else (a role step) came out: run,
 * denied, expired or escalated. With `notice`, the chat gets a message that says so (when the
 * model will not reply: the request is no longer the conversation's latest, or nobody decided
 * it), and pages that follow the chat read it again at once. A verified requester with an
 * email is mailed the outcome with a link to the chat, through the same outbox as approver
 * mail, once per approval (and once for an escalation). Does nothing for a call only its
 * requester decided. Never throws: telling is best effort, the outcome stands.
 */
export async function tellRequester(
  db: Db,
  approvalId: string,
  outcome: RequesterOutcome,
  { notice }: { notice: boolean },
): Promise<void> {
  try {
    const row = await getApproval(db, approvalId);
    if (row === undefined || row.ownerId === null) return;
    const steps = await getApprovalSteps(db, approvalId);
    if (!steps.some((step) => step.kind === 'role')) return;
    const messages = await getChatMessages(db, row.chatId);
    const language = chatLanguage(messages);
    const summaries = approverSummary(row.toolName, row.editedInput ?? row.input);
    const askedFor = row.editedInput === undefined ? undefined : approverSummary(row.toolName, row.input);
    const { decidedBy } = await decisionRecordOf(db, row);
    const result =
      outcome.kind === 'executed' && outcome.output !== undefined
        ? summarizeToolResult(row.toolName, outcome.output)
        : undefined;
    const textIn = (lang: Language) =>
      outcomeText(outcome, lang, {
        summary: summaries?.[lang] ?? row.toolName,
        by: decidedBy,
        askedFor: askedFor?.[lang],
        note: row.note,
        result: result?.[lang],
        expiresAt: row.expiresAt,
      });
    if (notice && messages.length > 0) {
      await upsertMessage(db, row.chatId, {
        id: `outcome-${outcome.kind}-${approvalId}`,
        role: 'assistant',
        parts: [{ type: 'text', text: textIn(language) }],
        metadata: { notice: true },
      });
      publishApprovalChange(db, row);
    }
    await mailRequester(db, {
      approvalId,
      chatId: row.chatId,
      ownerId: row.ownerId,
      kind: outcome.kind === 'escalated' ? 'escalated' : 'outcome',
      subject: outcome.kind,
      textIn,
    });
  } catch (error) {
    console.error(`[toolgate] could not tell the requester of approval ${approvalId}:`, error);
  }
}

/** The requester's mail subjects: each outcome says itself, so the inbox line alone tells it. */
const subjects = {
  executed: { en: 'Your request was approved and done', zh: '你的申请已批准并完成' },
  failed: { en: 'Your request was approved but failed to run', zh: '你的申请已批准，但执行失败' },
  denied: { en: 'Your request was denied', zh: '你的申请被拒绝' },
  expired: { en: 'Your request expired: nobody decided in time', zh: '你的申请已过期：无人及时审批' },
  escalated: { en: 'Your request was escalated', zh: '你的申请已升级' },
  question: { en: 'A question about your request', zh: '关于你的申请有一个问题' },
} as const;

/**
 * Queues the requester's mail (verified, not a guest, with `SMTP_URL`): the outcome, or an
 * approver's question, and a link to the chat. Once per approval and kind, or per `dedupeId`
 * (a question) when given.
 */
export async function mailRequester(
  db: Db,
  {
    approvalId,
    chatId,
    ownerId,
    kind,
    subject,
    dedupeId = approvalId,
    textIn,
  }: {
    approvalId: string;
    chatId: string;
    ownerId: string;
    /** What the mail is (its event type and, with `dedupeId`, what it is sent once per). */
    kind: 'outcome' | 'escalated' | 'question';
    /** What its subject says: the outcome itself (`executed`, `denied`, …), or `kind`'s. */
    subject: keyof typeof subjects;
    dedupeId?: string;
    textIn: (language: Language) => string;
  },
): Promise<void> {
  const config = getConfig();
  if (config.SMTP_URL === undefined) return;
  const yes = engineOf(db) === 'postgres' ? true : 1;
  const no = engineOf(db) === 'postgres' ? false : 0;
  const requester = await db
    .selectFrom('user')
    .select(['email', 'locale'])
    .where('id', '=', ownerId)
    .where('emailVerified', '=', yes)
    .where((eb) => eb.or([eb('isAnonymous', 'is', null), eb('isAnonymous', '=', no)]))
    .executeTakeFirst();
  if (requester === undefined || requester.email === '') return;
  const base = config.BETTER_AUTH_URL ?? `http://localhost:${process.env.PORT || 3000}`;
  const url = `${base.replace(/\/+$/, '')}/chat/${encodeURIComponent(chatId)}`;
  const language: Language | undefined =
    requester.locale === 'en' || requester.locale === 'zh' ? requester.locale : undefined;
  const english = `${textIn('en')}\n\nOpen the chat (you will be asked to sign in): ${url}\n`;
  const chinese = `${textIn('zh')}\n\n打开会话（需要登录）：${url}\n`;
  const mail: ApprovalMail = {
    to: requester.email,
    subject:
      language === 'zh'
        ? subjects[subject].zh
        : language === 'en'
          ? subjects[subject].en
          : `${subjects[subject].en} / ${subjects[subject].zh}`,
    text: language === 'zh' ? chinese : language === 'en' ? english : `${english}\n---\n\n${chinese}`,
  };
  const inserted = await insertWebhookDelivery(db, {
    id: randomUUID(),
    channel: 'mail',
    eventType: `approval.mail.requester.${kind}`,
    approvalId,
    body: JSON.stringify(mail),
    now: Date.now(),
    dedupeKey: `mail:requester-${kind}:${dedupeId}:${ownerId}`,
  });
  if (inserted) wakeWebhookDeliveries();
}
