import type { ApprovalView } from './api-types';

/** What the approvers' inbox says of an item's end and of the list itself, in one language. */
export type InboxText = {
  /** The call ran; `result` is its result in a few words (`RF-000003`), when known. */
  ran: (result: string | undefined) => string;
  failed: string;
  deniedBy: (names: string) => string;
  denied: string;
  /** The reader's own "no" (never their name in the third person). */
  youDenied: string;
  /** The reader's own allow, before how it went: "You allowed it · Ran: RF-000003". */
  youAllowed: (how: 'allow' | 'edit', outcome: string) => string;
  /** How an allowed call went, after `youAllowed`'s words (which already say it was allowed). */
  afterAllow: { failed: string; running: string };
  /** A call the reader denied, where their "no" is already shown beside it ("decided by me"). */
  nothingRan: string;
  refusedByPolicyNow: string;
  expired: string;
  withdrawn: string;
  waitingForOthers: string;
  escalatedTo: (role: string) => string;
  policyChangedNotYours: string;
  gone: string;
  running: string;
  /** Heading of the notes on items that left the list. */
  settledHeading: string;
  dismiss: string;
  /** The reason of a denial is sent with Enter (Shift+Enter: a new line). */
  enterSends: string;
  filterLabel: string;
  filterAllTools: string;
  filterAllRoles: string;
  filterMin: string;
  filterMax: string;
  filterOlderThan: string;
  filterAnyAge: string;
  filteredOut: (shown: number, all: number) => string;
  columns: { requester: string; what: string; amount: string; age: string; deadline: string };
  noneMatch: string;
};

const en: InboxText = {
  ran: (result) => (result === undefined ? 'Ran' : `Ran: ${result}`),
  failed: 'Allowed, but it failed while running',
  deniedBy: (names) => `Denied by ${names}`,
  denied: 'Denied',
  youDenied: 'You denied it',
  youAllowed: (how, outcome) =>
    `${how === 'edit' ? 'You edited and allowed it' : 'You allowed it'} · ${outcome}`,
  afterAllow: { failed: 'it failed while running', running: 'running…' },
  nothingRan: 'Nothing ran',
  refusedByPolicyNow: 'Refused by the policy now in force: nothing ran',
  expired: 'Expired: nobody decided in time',
  withdrawn: 'Withdrawn by the requester',
  waitingForOthers: 'Your decision is in: waiting for another approver',
  escalatedTo: (role) => `Escalated to ${role}: no longer yours to decide`,
  policyChangedNotYours: 'The policy changed: this call no longer needs your decision',
  gone: 'No longer yours to decide: escalated to another role, or your role changed',
  running: 'Allowed: running…',
  settledHeading: 'Just settled',
  dismiss: 'Dismiss',
  enterSends: 'Enter sends · Shift+Enter for a new line',
  filterLabel: 'Filter',
  filterAllTools: 'All tools',
  filterAllRoles: 'All roles',
  filterMin: 'Amount from',
  filterMax: 'to',
  filterOlderThan: 'Waiting',
  filterAnyAge: 'any time',
  filteredOut: (shown, all) => `${shown} of ${all} shown`,
  columns: { requester: 'Requester', what: 'What', amount: 'Amount', age: 'Age', deadline: 'Due' },
  noneMatch: 'Nothing matches these filters.',
};

const zh: InboxText = {
  ran: (result) => (result === undefined ? '已执行' : `已执行：${result}`),
  failed: '已允许，但执行失败',
  deniedBy: (names) => `已被${names}拒绝`,
  denied: '已拒绝',
  youDenied: '你已拒绝',
  youAllowed: (how, outcome) => `${how === 'edit' ? '你修改后允许' : '你已允许'} · ${outcome}`,
  afterAllow: { failed: '执行失败', running: '执行中…' },
  nothingRan: '什么都没有执行',
  refusedByPolicyNow: '现行审批规则拒绝了这次调用：什么都没有执行',
  expired: '已过期：无人及时审批',
  withdrawn: '请求人已撤回',
  waitingForOthers: '你的决定已记录：等待另一位审批人',
  escalatedTo: (role) => `已升级给${role}：不再需要你审批`,
  policyChangedNotYours: '审批规则有了变更：这次调用不再需要你的决定',
  gone: '不再需要你审批：已升级给其他角色，或你的角色已变更',
  running: '已允许：执行中…',
  settledHeading: '刚刚结束',
  dismiss: '关闭',
  enterSends: 'Enter 发送 · Shift+Enter 换行',
  filterLabel: '筛选',
  filterAllTools: '全部工具',
  filterAllRoles: '全部角色',
  filterMin: '金额从',
  filterMax: '到',
  filterOlderThan: '已等待',
  filterAnyAge: '不限',
  filteredOut: (shown, all) => `显示 ${shown} / ${all} 项`,
  columns: { requester: '请求人', what: '内容', amount: '金额', age: '已等待', deadline: '截止' },
  noneMatch: '没有符合筛选条件的请求。',
};

/** The inbox's words in `locale` (English unless it is Chinese). */
export function inboxTextOf(locale: string): InboxText {
  return locale === 'zh' ? zh : en;
}

/** A call's result in a few words: the id it made (`RF-000003`), else nothing. */
export function resultInBrief(result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const record = result as Record<string, unknown>;
  for (const key of ['refundId', 'ticketId', 'todoId', 'id']) {
    if (typeof record[key] === 'string') return record[key] as string;
  }
  return typeof record.message === 'string' ? record.message : undefined;
}

/**
 * What an approver reads about an item that left their list: how it ended, or why it is no
 * longer theirs. `view` is its current view (undefined: they may no longer see it, e.g. it was
 * escalated to a role they do not hold); `roleName` names a role in the reader's language.
 * A decision of the reader's own is said to them as theirs ("you denied it"), unless
 * `decisionShown`: their decision is already shown beside the note.
 */
export function whyItLeft(
  view: ApprovalView | undefined,
  text: InboxText,
  roleName: (role: string) => string,
  { decisionShown = false }: { decisionShown?: boolean } = {},
): { text: string; tone: 'success' | 'destructive' | 'muted' } {
  if (view === undefined) return { text: text.gone, tone: 'muted' };
  const outcome = view.outcome;
  const mine = decisionShown ? undefined : view.viewer.decided;
  const allowedByMe = mine === 'allow' || mine === 'edit' ? mine : undefined;
  if (outcome?.status === 'executed') {
    const ran = text.ran(resultInBrief(outcome.result));
    return { text: allowedByMe ? text.youAllowed(allowedByMe, ran) : ran, tone: 'success' };
  }
  if (outcome?.status === 'failed')
    return {
      text: allowedByMe ? text.youAllowed(allowedByMe, text.afterAllow.failed) : text.failed,
      tone: 'destructive',
    };
  if (outcome?.status === 'expired') return { text: text.expired, tone: 'muted' };
  if (outcome?.status === 'withdrawn' || (view.reason as string | undefined) === 'withdrawn')
    return { text: text.withdrawn, tone: 'muted' };
  if (outcome?.status === 'denied') {
    if (view.reason === 'policy_changed') return { text: text.refusedByPolicyNow, tone: 'destructive' };
    if (view.viewer.decided === 'deny')
      return { text: decisionShown ? text.nothingRan : text.youDenied, tone: 'destructive' };
    const deniers = view.steps.filter((step) => step.decision === 'deny' && step.decidedBy !== undefined);
    const names = deniers.map((step) => step.decidedBy?.name ?? '').filter((name) => name !== '');
    return { text: names.length > 0 ? text.deniedBy(names.join(', ')) : text.denied, tone: 'destructive' };
  }
  if (view.status === 'approved' || view.status === 'executing')
    return {
      text: allowedByMe ? text.youAllowed(allowedByMe, text.afterAllow.running) : text.running,
      tone: 'muted',
    };
  // Still pending, but not for this person any more.
  const escalated = view.steps.find((step) => step.escalatedTo !== undefined && step.decision === undefined);
  if (escalated?.escalatedTo !== undefined)
    return { text: text.escalatedTo(roleName(escalated.escalatedTo)), tone: 'muted' };
  if (view.policyChanged !== undefined && !view.steps.some((step) => step.decision !== undefined))
    return { text: text.policyChangedNotYours, tone: 'muted' };
  return { text: text.waitingForOthers, tone: 'muted' };
}
