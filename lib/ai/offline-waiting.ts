import { readableWait } from '@/lib/shared/readable-wait';
import type { Language } from './language';
import {
  type AnsweredQuestionFact,
  type EndedCardFact,
  readAnsweredQuestions,
  readEndedCards,
  readWaitingRequests,
  type WaitingRequestFact,
  withdrawRequestToolName,
} from './waiting-requests-block';

/*
 * The offline model's side of requests that wait for someone else and of cards a new message
 * ended (see waiting-requests-block.ts): it reads them from the system prompt, answers "any
 * update?", withdraws a request when asked to, and says what a new message did to a card.
 */

const updateQuestion =
  /\b(?:any (?:update|news|word)|what(?:'s| is) (?:the )?(?:status|happening)|status of my|still waiting|heard (?:back|anything)|(?:is )?(?:any|some)(?:one|body) (?:looking|working|checking|reviewing|handling)(?: (?:at|on|into))? (?:this|it|my)|has (?:any|some)(?:one|body) (?:looked|seen|checked)|how(?:'s| is) my (?:refund|request|ticket)|is it (?:approved|done)|when will)\b|进展|进度|怎么样了|有消息|有结果|批了吗|批下来|审批.{0,6}(?:吗|了没|没有)|还要等|到哪一步|有人(?:在)?(?:看|处理|管)(?:吗|了吗|没有)/iu;

const withdrawal =
  /\b(?:cancel|withdraw|take back|call off|drop)\b.{0,40}\b(?:refund|request|ticket|it|that)\b|\bnever ?mind\b.{0,20}\b(?:refund|request)\b|\bdon'?t (?:want|need) (?:the|my|a|that) (?:refund|ticket)\b|\bno longer (?:want|need)\b|不退了|不用退|不要退|取消.{0,6}(?:退款|申请|请求|工单)|撤回|撤销.{0,6}(?:申请|请求)/iu;

/** The start of a message that answers the person's own card with a "no" ("never mind", "算了", "cancel"). */
const cancelPhrase =
  /^\s*(?:never ?mind|nevermind|cancel(?: it| that| please)?|forget (?:it|that)|no,? (?:thanks|cancel)|stop|算了|不用了|取消|不要了|不需要了)(?=$|[\s,，.。!！;；~])/iu;

/** True for a message that begins by calling off the person's own waiting card. */
export function isCancelPhrase(text: string): boolean {
  return cancelPhrase.test(text) || /^\s*算了/u.test(text);
}

const roleNames: Record<Language, Record<string, string>> = {
  en: { supervisor: 'a supervisor', admin: 'an admin', manager: 'a manager' },
  zh: { supervisor: '主管', admin: '管理员', manager: '经理' },
};

function whom(roles: readonly string[], language: Language): string {
  const names = roles.map((role) => roleNames[language][role] ?? (language === 'zh' ? `「${role}」` : role));
  if (names.length === 0) return language === 'zh' ? '审批人' : 'an approver';
  return names.join(language === 'zh' ? '和' : ' and ');
}

function summaryIn(fact: { summary?: Partial<Record<Language, string>>; tool: string }, language: Language) {
  return fact.summary?.[language] ?? fact.summary?.en ?? fact.tool;
}

/** "still waiting for a supervisor, asked 3 min ago, due in 3 h 57 min (20:08 UTC)". */
function statusLine(request: WaitingRequestFact & { now: number }, language: Language): string {
  const asked = readableWait(request.now - request.askedAt, language);
  const left = readableWait(request.expiresAt - request.now, language);
  const clock = new Date(request.expiresAt).toISOString().slice(11, 16);
  const roles = request.escalatedTo === undefined ? request.waitsFor : [request.escalatedTo];
  if (language === 'zh') {
    return `「${summaryIn(request, language)}」仍在等待${whom(roles, language)}审批：${asked}前提交，须在 ${left}内（UTC ${clock} 前）决定${request.escalatedTo === undefined ? '' : '（已升级）'}。`;
  }
  return `“${summaryIn(request, language)}” is still waiting for ${whom(roles, language)}${request.escalatedTo === undefined ? '' : ' (escalated)'}: asked ${asked} ago, due in ${left} (by ${clock} UTC).`;
}

/** What the offline model does about waiting requests for this message: a reply, a withdrawal, or nothing. */
export type WaitingRequestStep =
  | { kind: 'reply'; text: string }
  | { kind: 'withdraw'; approvalId: string }
  | undefined;

/**
 * The step for the latest message when the instructions name waiting requests or ended cards:
 * "cancel the refund request" withdraws the request it names (the newest when none is named),
 * "any update?" gets each one's status, and a bare "never mind" that denied the person's own
 * card gets its acknowledgement. Anything else is left to the rest of the model.
 */
export function waitingRequestStep({
  system,
  text,
  language,
  available,
}: {
  system: string;
  text: string;
  language: Language;
  available: ReadonlySet<string>;
}): WaitingRequestStep {
  // A message that answers an approver's question was passed on: it starts nothing and withdraws nothing.
  const answered = readAnsweredQuestions(system);
  if (answered.length > 0) return { kind: 'reply', text: answerPassedOn(answered, language) };
  const waiting = readWaitingRequests(system);
  const ended = readEndedCards(system);
  const denied = ended.filter((card) => card.how === 'denied');
  if (denied.length > 0 && isCancelPhrase(text) && !withdrawal.test(text)) {
    return { kind: 'reply', text: endedCardsNotice(denied, language) };
  }
  if (waiting.length === 0) return undefined;
  if (withdrawal.test(text) && available.has(withdrawRequestToolName)) {
    const named = waiting.filter((request) =>
      new RegExp(request.tool.replace(/^issue|^create|^add/, ''), 'i').test(text),
    );
    const target = (named.length > 0 ? named : waiting).at(-1);
    if (target !== undefined) return { kind: 'withdraw', approvalId: target.approvalId };
  }
  if (updateQuestion.test(text)) {
    return { kind: 'reply', text: waiting.map((request) => statusLine(request, language)).join('\n\n') };
  }
  return undefined;
}

/** "I've passed your answer to Wang (supervisor); …": what the reply says when the message answered a question. */
export function answerPassedOn(questions: readonly AnsweredQuestionFact[], language: Language): string {
  const askers = [
    ...new Set(
      questions.map(({ askedBy }) =>
        language === 'zh'
          ? `${roleNames.zh[askedBy.role] ?? askedBy.role} ${askedBy.name}`.trim()
          : `${askedBy.name} (${askedBy.role})`,
      ),
    ),
  ].join(language === 'zh' ? '和' : ' and ');
  const subjects = [...new Set(questions.map((question) => summaryIn(question, language)))];
  return language === 'zh'
    ? `我已把你的回答转给${askers}。${subjects.map((subject) => `「${subject}」`).join('、')}仍在等待审批，有结果会告诉你。`
    : `I've passed your answer to ${askers}. ${subjects.map((subject) => `“${subject}”`).join(' and ')} ${subjects.length === 1 ? 'is' : 'are'} still waiting for their decision; you will be told the outcome.`;
}

/** The sentence that says what the person's new message did to their own cards ('' when it did nothing). */
export function endedCardsNotice(cards: readonly EndedCardFact[], language: Language): string {
  return cards
    .map((card) => {
      const subject = summaryIn(card, language);
      if (card.how === 'denied') {
        return language === 'zh'
          ? `好的，已按你的意思取消「${subject}」，什么都没有执行。`
          : `OK, I cancelled “${subject}” as you asked; nothing was done.`;
      }
      return language === 'zh'
        ? `你发了新消息，等待你确认的「${subject}」已搁置，什么都没有执行；如仍需要，请重新提出。`
        : `You wrote something else, so “${subject}”, which waited for your answer, was set aside and nothing was done; ask again if you still want it.`;
    })
    .join(' ');
}

/** The notice for the cards the instructions say the new message set aside (not the ones it denied). */
export function supersededNotice(system: string, language: Language): string {
  return endedCardsNotice(
    readEndedCards(system).filter((card) => card.how === 'superseded'),
    language,
  );
}

/** The reply after a withdrawal ran: it was withdrawn, or it was no longer waiting. */
export function withdrawnReply(output: unknown, language: Language): string {
  const value = typeof output === 'object' && output !== null ? (output as Record<string, unknown>) : {};
  const summary =
    typeof value.summary === 'object' && value.summary !== null
      ? summaryIn({ summary: value.summary as Partial<Record<Language, string>>, tool: '' }, language)
      : language === 'zh'
        ? '这个申请'
        : 'the request';
  if (value.withdrawn === true) {
    return language === 'zh'
      ? `已撤回「${summary}」：它不再等待审批，什么都没有执行。`
      : `I withdrew “${summary}”: it no longer waits for approval, and nothing was done.`;
  }
  return language === 'zh'
    ? '这个申请已经不在等待中了（可能刚刚被处理或已过期），所以无法撤回。'
    : 'That request is no longer waiting (it was just decided or expired), so it could not be withdrawn.';
}
