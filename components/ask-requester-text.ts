/** What "Ask the requester" says, on an approver's card and on the requester's, in one language. */
export type AskRequesterText = {
  /** The button that opens the question's field (the inbox key `q` presses it). */
  ask: string;
  label: string;
  placeholder: string;
  send: string;
  cancel: string;
  /** Under the field: Enter sends, Shift+Enter starts a new line, and the request keeps waiting. */
  hint: string;
  heading: string;
  /** "Wang (supervisor) asked" */
  asked: (who: string) => string;
  answer: string;
  noAnswerYet: string;
  /** On the requester's card, under an open question: how to answer it. */
  howToAnswer: string;
  sent: string;
  failed: string;
  /** The compact list's mark on an item: a question waits for its answer, or the last one was answered. */
  openMark: string;
  answeredMark: string;
};

const en: AskRequesterText = {
  ask: 'Ask the requester',
  label: 'Your question to the requester',
  placeholder: 'e.g. Was the item opened?',
  send: 'Send question',
  cancel: 'Cancel',
  hint: 'Enter sends · Shift+Enter for a new line · the request keeps waiting, its deadline does not change',
  heading: 'Questions to the requester',
  asked: (who) => `${who} asked`,
  answer: 'Answer',
  noAnswerYet: 'No answer yet',
  howToAnswer: 'Answer by writing in this chat: your next message is passed to them.',
  sent: 'Question sent: it appears in the requester’s chat.',
  failed: 'The question could not be sent.',
  openMark: 'Asked the requester: no answer yet',
  answeredMark: 'The requester answered',
};

const zh: AskRequesterText = {
  ask: '向申请人提问',
  label: '你要问申请人的问题',
  placeholder: '例如：商品拆封了吗？',
  send: '发送问题',
  cancel: '取消',
  hint: 'Enter 发送 · Shift+Enter 换行 · 申请继续等待，期限不变',
  heading: '向申请人的提问',
  asked: (who) => `${who} 提问`,
  answer: '回答',
  noAnswerYet: '尚未回答',
  howToAnswer: '直接在这个会话里回复即可：你的下一条消息会转给对方。',
  sent: '问题已发送，会显示在申请人的会话里。',
  failed: '问题未能发送。',
  openMark: '已向申请人提问，尚未回答',
  answeredMark: '申请人已回答',
};

/** The texts in `locale` (English for any other). */
export function askRequesterTextOf(locale: string): AskRequesterText {
  return locale === 'zh' ? zh : en;
}
