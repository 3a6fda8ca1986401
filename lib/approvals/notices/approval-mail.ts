import 'server-only';
import { randomUUID } from 'node:crypto';
import { getConfig } from '@/lib/config';
import { type Db, engineOf } from '@/lib/db/engine';
import type { Language } from '@/lib/shared/language';
import { readableDeadline } from '@/lib/shared/readable-wait';
import { localizePreview } from '@/lib/tools/localize-preview';
import { approvalUrl } from '@/lib/webhooks/approval-event';
import { insertWebhookDelivery } from '@/lib/webhooks/webhook-deliveries';
import { wakeWebhookDeliveries } from '@/lib/webhooks/webhook-delivery-loop';
import { getApproval, getApprovalSteps, userNamesById } from '../life-cycle/approval-rows';
import { approverMailText, approverSummary } from './approver-text';

/** Why an approver is mailed: a step opened for them, nobody decided by half the wait, or it was escalated to them. */
export type ApprovalMailKind = 'requested' | 'reminder' | 'escalated';

/** One mail as the outbox keeps it (the row's body): the loop sends it as it is. */
export type ApprovalMail = { to: string; subject: string; text: string };

/** The most holders of one role mailed about one approval: the work per approval stays bounded. */
export const maxMailedHolders = 100;

/** Options of {@link mailApprovers}, for tests; the defaults come from the configuration. */
export type MailApproversOptions = {
  /** The roles to mail; default the roles of the approval's open role steps. */
  roles?: readonly string[];
  /** The clock, epoch ms. Default `Date.now`. */
  now?: number;
};

/**
 * Queues one mail for each verified holder of a role an open step of the approval waits
 * for — never its requester, a guest or someone who already decided a step — in the
 * webhook's outbox (channel `mail`), which this or any instance's mail loop sends over
 * `SMTP_URL`, retried. At most one mail of each kind per person and approval, whichever
 * instances try: the row's key is unique. Does nothing without `SMTP_URL` or once the
 * approval is no longer pending. Each mail is in the language its reader last used in the
 * app (`user.locale`), in both while it is not known. Returns how many mails were queued.
 */
export async function mailApprovers(
  db: Db,
  approvalId: string,
  kind: ApprovalMailKind,
  { roles: wanted, now = Date.now() }: MailApproversOptions = {},
): Promise<number> {
  const config = getConfig();
  if (config.SMTP_URL === undefined) return 0;
  const row = await getApproval(db, approvalId);
  if (row === undefined || row.status !== 'pending') return 0;
  const steps = await getApprovalSteps(db, approvalId);
  const roles = wanted ?? [
    ...new Set(
      steps.flatMap((step) => (step.kind === 'role' && step.decision === undefined ? [step.role] : [])),
    ),
  ];
  if (roles.length === 0) return 0;
  const decided = new Set(steps.flatMap((step) => (step.decidedBy === undefined ? [] : [step.decidedBy])));
  const holders = (await verifiedHoldersOf(db, roles)).filter(
    (holder) => holder.id !== row.ownerId && !decided.has(holder.id),
  );
  if (holders.length === 0) return 0;
  const requester = (row.ownerId !== null && (await userNamesById(db, [row.ownerId])).get(row.ownerId)) || '';
  const summary = approverSummary(row.toolName, row.editedInput ?? row.input);
  const base = config.BETTER_AUTH_URL ?? `http://localhost:${process.env.PORT || 3000}`;
  const url = approvalUrl(base, approvalId);
  let queued = 0;
  for (const holder of holders) {
    const mail = approvalMailOf({
      kind,
      to: holder.email,
      language: holder.language,
      summary: { en: summary?.en ?? row.toolName, zh: summary?.zh ?? row.toolName },
      requester,
      expiresAt: row.expiresAt,
      now,
      url,
      roles,
      ...(row.excerpt !== undefined && row.excerpt !== '' && { customerMessage: row.excerpt }),
      ...(reasonOf(row.editedInput ?? row.input) !== undefined && {
        reason: reasonOf(row.editedInput ?? row.input),
      }),
      ...(row.preview !== undefined &&
        row.preview.unavailable === undefined && {
          preview: {
            en: localizePreview(row.preview, 'en').preview?.lines ?? [],
            zh: localizePreview(row.preview, 'zh').preview?.lines ?? [],
          },
        }),
    });
    const inserted = await insertWebhookDelivery(db, {
      id: randomUUID(),
      channel: 'mail',
      eventType: `approval.mail.${kind}`,
      approvalId,
      body: JSON.stringify(mail),
      now,
      dedupeKey: `mail:${kind}:${approvalId}:${holder.id}`,
    });
    if (inserted) queued++;
  }
  if (queued > 0) wakeWebhookDeliveries();
  return queued;
}

/** A holder to mail: their address, and the language they last used in the app when it is known. */
type Holder = { id: string; email: string; language?: Language };

/** Verified, unbanned accounts (never guests) holding one of `roles`, up to {@link maxMailedHolders} per call. */
async function verifiedHoldersOf(db: Db, roles: readonly string[]): Promise<Holder[]> {
  const yes = engineOf(db) === 'postgres' ? true : 1;
  const no = engineOf(db) === 'postgres' ? false : 0;
  const rows = await db
    .selectFrom('user_role')
    .innerJoin('user', 'user.id', 'user_role.user_id')
    .select(['user.id as id', 'user.email as email', 'user.locale as locale'])
    .where('user_role.role', 'in', [...roles])
    .where('user.emailVerified', '=', yes)
    .where((eb) => eb.or([eb('user.isAnonymous', 'is', null), eb('user.isAnonymous', '=', no)]))
    .where((eb) => eb.or([eb('user.banned', 'is', null), eb('user.banned', '=', no)]))
    .orderBy('user.id')
    .limit(maxMailedHolders)
    .execute();
  const unique = new Map(
    rows.map(({ id, email, locale }): [string, Holder] => [
      id,
      { id, email, ...((locale === 'en' || locale === 'zh') && { language: locale }) },
    ]),
  );
  return [...unique.values()];
}

const subjects = {
  requested: { en: 'Approval needed', zh: '需要您审批' },
  reminder: { en: 'Reminder: approval still needed', zh: '提醒：仍需您审批' },
  escalated: { en: 'Escalated to you: approval needed', zh: '已升级给您：需要审批' },
} as const satisfies Record<ApprovalMailKind, Record<'en' | 'zh', string>>;

/** The reason the call's input gives (a refund's `reason`), when it has one. */
function reasonOf(input: unknown): string | undefined {
  const reason =
    typeof input === 'object' && input !== null ? (input as { reason?: unknown }).reason : undefined;
  return typeof reason === 'string' && reason.trim() !== '' ? reason : undefined;
}

/** Role names as a reader of each language knows them; a role not listed keeps the file's spelling. */
const roleNamesByLanguage: Record<Language, Readonly<Record<string, string>>> = {
  en: { supervisor: 'supervisor', admin: 'admin', manager: 'manager' },
  zh: { supervisor: '主管', admin: '管理员', manager: '经理' },
};

/** A role in `language`. */
function roleIn(role: string, language: Language): string {
  const names = roleNamesByLanguage[language];
  return Object.hasOwn(names, role) ? (names[role] as string) : role;
}

/**
 * The mail to one approver, subject and body in their `language` (the one they last used in
 * the app), or in English and Chinese when it is not known: what the call does and who asked
 * (each on one line, control characters as code points, links defanged: `approverMailText`),
 * the deadline as people read it, and the link. The link
 * grants nothing: the approval page asks the reader to sign in, and shows the call only to
 * those who may decide it.
 */
export function approvalMailOf({
  kind,
  to,
  language,
  summary,
  requester,
  expiresAt,
  now,
  url,
  roles,
  customerMessage,
  reason,
  preview,
}: {
  kind: ApprovalMailKind;
  to: string;
  /** Undefined: both languages. */
  language?: Language;
  summary: { en: string; zh: string };
  requester: string;
  expiresAt: number;
  now: number;
  url: string;
  roles: readonly string[];
  /** The customer's message that led to the call. */
  customerMessage?: string;
  /** The reason the call's input gives (a refund's), when it has one. */
  reason?: string;
  /** The preview's lines per language (what is left on the order, …). */
  preview?: { en: { label: string; value: string }[]; zh: { label: string; value: string }[] };
}): ApprovalMail {
  // One line each, no link: a summary or a name cannot forge a line below or a link above ours.
  const line = (text: string) => approverMailText(text).slice(0, 500);
  const who = line(requester) || '—';
  // The customer's own words: one line, hidden characters shown, links defanged (not clickable).
  const quoted = (text: string | undefined) => (text === undefined ? undefined : line(text).slice(0, 300));
  const said = quoted(customerMessage);
  const because = quoted(reason);
  const previewLines = (language: Language) =>
    (preview?.[language] ?? []).map((entry) => `  ${line(entry.label)}: ${line(entry.value)}`);
  const english = [
    `${subjects[kind].en} (${roles.map((role) => roleIn(role, 'en')).join(', ')}):`,
    '',
    `  ${line(summary.en)}`,
    ...previewLines('en'),
    '',
    `Asked by: ${who}`,
    ...(because === undefined ? [] : [`Reason: ${because}`]),
    ...(said === undefined ? [] : [`The customer wrote: “${said}”`]),
    `Answer within: ${readableDeadline(expiresAt, now, 'en', 'UTC')}`,
    '',
    `Open it (you will be asked to sign in): ${url}`,
  ];
  const chinese = [
    `${subjects[kind].zh}（${roles.map((role) => roleIn(role, 'zh')).join('、')}）：`,
    '',
    `  ${line(summary.zh)}`,
    ...previewLines('zh'),
    '',
    `申请人：${who}`,
    ...(because === undefined ? [] : [`原因：${because}`]),
    ...(said === undefined ? [] : [`客户留言：“${said}”`]),
    `请在 ${readableDeadline(expiresAt, now, 'zh', 'UTC')} 内处理`,
    '',
    `打开链接（需要登录）：${url}`,
  ];
  if (language === 'en')
    return {
      to,
      subject: `${subjects[kind].en}: ${line(summary.en).slice(0, 120)}`,
      text: `${english.join('\n')}\n`,
    };
  if (language === 'zh')
    return {
      to,
      subject: `${subjects[kind].zh}：${line(summary.zh).slice(0, 120)}`,
      text: `${chinese.join('\n')}\n`,
    };
  return {
    to,
    subject: `${subjects[kind].en} / ${subjects[kind].zh}: ${line(summary.en).slice(0, 120)}`,
    text: `${english.join('\n')}\n\n---\n\n${chinese.join('\n')}\n`,
  };
}
